// Package navigation answers what the name at the cursor is and where it
// leads: hover, definition, references and highlights, rename, type
// definition and implementations, the type and call hierarchies and the
// code lenses that count references, within a document and across the
// files that include one another. It reads a [core.Analysis] (a partial
// one after an edit, see core.Snapshot.Query and QueryName).
//
// Start with navigate.go (Definition, References) and hover.go (Hover);
// crossfile.go follows `include` (HoverAcross, IncludedDefinition,
// ReferencesAcross, RenameAcross), members.go the members of containers
// and interfaces, hierarchy.go the family of files ([Files]) and the type
// graph that typedef.go and the hierarchies read, calls.go the call
// hierarchy, rename.go renames, codelens.go counts references, and
// filerename.go keeps the includes naming their files when files move.
//
// navigation imports core and, for the documentation of the keywords that
// hover shows, completion.
package navigation
