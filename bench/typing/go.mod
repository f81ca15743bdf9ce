module wfl-lsp/bench/typing

go 1.26

require wfl-lsp v0.0.0

replace wfl-lsp => ../..
