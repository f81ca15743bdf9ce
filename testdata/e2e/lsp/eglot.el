;;; eglot.el --- end-to-end test of wfl-lsp under Emacs and eglot  -*- lexical-binding: t -*-

;; Run by .ci/lsp-e2e.sh:
;;
;;   PATH=DIR-OF-wfl-lsp:$PATH emacs --batch -Q -l testdata/e2e/lsp/eglot.el
;;
;; from the repository's top folder.  It evaluates the Emacs configuration
;; of README.md (the elisp block under "### Emacs") as a user's init file,
;; copies testdata/e2e/lsp/emacs/ to a temporary folder, visits its files
;; and checks what a user sees, in the buffer's text and in Flymake's and
;; ElDoc's state: diagnostics after opening a file and after edits
;; (also while a line is unfinished), hover, go to definition, rename of a
;; multi-word name, a rename eglot sends before the change it follows
;; (refused, thanks to versioned edits), a rename of a property declared in
;; an included file that changes every file, formatting, a quick fix, an
;; action typed key by key into the middle of scores.wfl whose `end
;; action' is never typed (completion at point of its parameter, hover
;; below it, imenu, Flymake), and a clean shutdown.  Prints one "ok"/"FAIL" line a check and exits 0 when
;; every check passed, 1 otherwise.
;;
;; Batch Emacs has no command loop: it never runs `post-command-hook' and
;; never becomes idle, and eglot waits for both (`eglot-ensure' connects
;; after the command that visited the file; changes go to the server when
;; Emacs is idle).  `e2e-command' and `e2e-idle' do what the command loop
;; would do, and every wait for the server is a bounded poll of
;; `accept-process-output', never a fixed sleep.

(require 'cl-lib)
(require 'subr-x)

(defvar e2e-failures 0 "Checks failed so far.")
(defvar e2e-checks 0 "Checks run so far.")
(defvar e2e-timeout 10 "Seconds to wait for the server before a check fails.")
(defvar e2e-start (float-time) "When the suite started.")

(defun e2e-log (fmt &rest args)
  "Print FMT with ARGS and a line break to standard output."
  (princ (concat (apply #'format fmt args) "\n")))

(defun e2e-check (name ok &optional detail)
  "Record check NAME: passed when OK; DETAIL says what was seen otherwise."
  (cl-incf e2e-checks)
  (if ok
      (e2e-log "ok    %s" name)
    (cl-incf e2e-failures)
    (e2e-log "FAIL  %s%s" name (if detail (concat "\n      " detail) ""))))

(defun e2e-wait (pred &optional secs)
  "Poll the server's output until PRED is non-nil or SECS (default
`e2e-timeout') have passed; return PRED's last value."
  (let ((deadline (+ (float-time) (or secs e2e-timeout)))
        val)
    (while (and (not (setq val (funcall pred)))
                (< (float-time) deadline))
      (accept-process-output nil 0.02))
    val))

(defun e2e-command (command &rest args)
  "Run COMMAND as the command loop would: with ARGS, or interactively
when there are none, then `post-command-hook'."
  (let ((this-command command))
    (run-hooks 'pre-command-hook)
    (if args (apply command args) (call-interactively command))
    (run-hooks 'post-command-hook))
  (setq last-command command))

(defun e2e-idle ()
  "Do what Emacs does when the user stops typing: run the idle timers
\(eglot sends its pending `didChange' from one)."
  (dolist (timer (copy-sequence timer-idle-list))
    (timer-event-handler timer)))

(defun e2e-text ()
  "The current buffer's text, without properties."
  (buffer-substring-no-properties (point-min) (point-max)))

(defun e2e-eldoc ()
  "Empty the *eldoc* buffer, then run M-x eldoc at point."
  (when (buffer-live-p eldoc--doc-buffer)
    (with-current-buffer eldoc--doc-buffer
      (let ((inhibit-read-only t)) (erase-buffer))))
  (e2e-command #'eldoc))

(defun e2e-eldoc-text ()
  "The text of the *eldoc* buffer, or nil when there is none."
  (and (buffer-live-p eldoc--doc-buffer)
       (with-current-buffer eldoc--doc-buffer (e2e-text))))

(defun e2e-goto (line text)
  "Put point on the first occurrence of TEXT on LINE (1-based)."
  (goto-char (point-min))
  (forward-line (1- line))
  (unless (search-forward text (line-end-position) t)
    (error "Line %d has no %S" line text))
  (goto-char (match-beginning 0))
  ;; Inside the name, as a user's cursor would be.
  (forward-char 2))

(defun e2e-diags ()
  "Flymake's diagnostics of the current buffer, as (LINE TEXT TYPE
MESSAGE) lists in position order: what the user sees underlined."
  (mapcar (lambda (d)
            (list (line-number-at-pos (flymake-diagnostic-beg d))
                  (buffer-substring-no-properties (flymake-diagnostic-beg d)
                                                  (flymake-diagnostic-end d))
                  (flymake-diagnostic-type d)
                  (flymake-diagnostic-text d)))
          (sort (flymake-diagnostics)
                (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))

(defun e2e-visit (file)
  "Visit FILE as a user would (eglot connects after the command) and
wait until eglot manages the buffer."
  (e2e-command #'find-file file)
  (e2e-wait (lambda () (and (eglot-managed-p) (eglot-current-server))))
  (eglot-managed-p))

(defun e2e-events-tail ()
  "The end of the eglot events buffer, for a failure's diagnosis."
  (when-let* ((server (ignore-errors (eglot-current-server)))
              (buf (jsonrpc-events-buffer server)))
    (with-current-buffer buf
      (buffer-substring-no-properties (max (point-min) (- (point-max) 3000)) (point-max)))))

;;; The user's configuration: README.md's Emacs section.

(let ((elpa "/usr/share/emacs/site-lisp/elpa"))
  ;; -Q skips the package activation a normal start does; Debian installs
  ;; elpa-eglot (and what it needs) as a system package here.
  (require 'package)
  (when (file-directory-p elpa)
    (add-to-list 'package-directory-list elpa))
  (package-activate-all))

(defun e2e-readme-config (readme)
  "The elisp block of the \"### Emacs\" section of README."
  (with-temp-buffer
    (insert-file-contents readme)
    (unless (re-search-forward "^### Emacs" nil t)
      (error "README.md has no \"### Emacs\" section"))
    (let ((section-end (save-excursion
                         (if (re-search-forward "^##" nil t) (match-beginning 0) (point-max)))))
      (unless (re-search-forward "^```elisp\n" section-end t)
        (error "README.md's Emacs section has no elisp block"))
      (let ((start (point)))
        (re-search-forward "^```$" section-end)
        (buffer-substring-no-properties start (match-beginning 0))))))

(condition-case err
    (with-temp-buffer
      (insert (e2e-readme-config (expand-file-name "README.md")))
      (goto-char (point-min))
      (condition-case nil
          (while t (eval (read (current-buffer)) t))
        (end-of-file nil)))
  (error
   (e2e-check "README.md's Emacs configuration evaluates" nil (error-message-string err))
   (kill-emacs 1)))

;;; The checks.

(defvar e2e-dir (file-name-as-directory (make-temp-file "wfl-eglot-" t)))
(copy-directory (expand-file-name "testdata/e2e/lsp/emacs") e2e-dir nil nil t)
(copy-directory (expand-file-name "testdata/e2e/lsp/include") e2e-dir nil nil t)
(copy-file (expand-file-name "testdata/e2e/lsp/scores.wfl") e2e-dir)

(e2e-log "--- %s, eglot %s"
         (car (split-string (emacs-version) "\n"))
         (if-let ((desc (cadr (assq 'eglot package-alist))))
             (package-version-join (package-desc-version desc))
           "built in"))

;; Each step is a user action and the checks of what it shows; an error in
;; a step fails that step, and the steps after it still run.
(defmacro e2e-step (name &rest body)
  "Run BODY; an error in it is a failed check named NAME."
  (declare (indent 1))
  `(condition-case err
       (progn ,@body)
     (error (e2e-check ,name nil (format "%s\n      eglot events (end):\n%s"
                                         (error-message-string err) (e2e-events-tail))))))

(defvar e2e-server nil "The eglot connection to wfl-lsp.")

(defvar e2e-published (make-hash-table :test #'equal)
  "The version of the text of each publishDiagnostics, by URI.
eglot 1.9 does not keep it; it tells which text Flymake's
diagnostics are of.")
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (puthash (plist-get params :uri) (plist-get params :version) e2e-published))))

(defun e2e-file (name)
  "The copy of testdata/e2e/lsp/emacs/NAME in the temporary folder."
  (expand-file-name name e2e-dir))

(defun e2e-main ()
  ;; 1. Visiting a .wfl file starts wfl-lsp through the README's setup.
  (e2e-step "visiting greet.wfl"
    (e2e-check "visiting greet.wfl starts wfl-lsp in wfl-mode under eglot"
               (and (e2e-visit (e2e-file "greet.wfl")) (eq major-mode 'wfl-mode))
               (format "major-mode %s, eglot managed %s" major-mode (eglot-managed-p)))
    (setq e2e-server (eglot-current-server))
    (e2e-check "the server introduces itself as wfl-lsp"
               (equal (plist-get (eglot--server-info e2e-server) :name) "wfl-lsp")
               (format "serverInfo %S" (eglot--server-info e2e-server))))
  (unless e2e-server
    (error "eglot did not connect to wfl-lsp"))

  ;; 2. Diagnostics after opening: the undefined name on the last line.
  ;; eglot-ensure takes the buffer over from post-command-hook, and Flymake
  ;; (1.2 in Emacs 28) defers its first check to the end of the next
  ;; command: the user moves the cursor.
  (e2e-step "diagnostics after open"
    (e2e-command #'move-beginning-of-line 1)
    (e2e-wait (lambda () (e2e-diags)))
    (let ((got (e2e-diags)))
      (e2e-check "diagnostics after open: Flymake marks 'mystery guest' (line 12) \"Variable 'mystery guest' is not defined\", an error, and nothing else"
                 (and (equal (mapcar #'butlast got) '((12 "mystery guest" eglot-error)))
                      (string-match-p "Variable 'mystery guest' is not defined" (nth 3 (car got))))
                 (format "flymake diagnostics: %S" got))))

  ;; 3. Hover on 'first name' in "check if first name is ..." (line 9):
  ;; M-x eldoc shows the server's hover in the *eldoc* buffer.  (Inside a
  ;; call's arguments eglot shows signature help instead: eglot 1.9 puts
  ;; it first among ElDoc's sources.)
  (e2e-step "hover"
    (e2e-goto 9 "first name")
    (e2e-eldoc)
    (e2e-check "hover: M-x eldoc on 'first name' (line 9) shows \"variable first name: Text\""
               (e2e-wait (lambda () (string-match-p "variable first name: Text" (or (e2e-eldoc-text) ""))))
               (format "*eldoc* buffer: %S" (e2e-eldoc-text))))

  ;; 4. Go to definition: M-. on the use on line 10 lands on the
  ;; declaration on line 6.
  (e2e-step "definition"
    (e2e-goto 10 "first name")
    (e2e-command #'xref-find-definitions)
    (e2e-check "definition: M-. on 'first name' (line 10) puts point on its declaration (line 6)"
               (and (eq (window-buffer) (get-file-buffer (e2e-file "greet.wfl")))
                    (= (line-number-at-pos) 6)
                    (looking-at-p "first name as \"Zo"))
               (format "buffer %s, line %d, text from point %S" (window-buffer) (line-number-at-pos)
                       (buffer-substring-no-properties (point) (line-end-position)))))

  ;; 5. Edits: one that adds an error (its diagnostic appears), then one
  ;; that takes it out again and declares the missing name (all go away).
  (e2e-step "diagnostics after edits"
    (with-current-buffer (get-file-buffer (e2e-file "greet.wfl"))
      (goto-char (point-max))
      (insert "display stranger\n")
      (e2e-idle)
      (e2e-wait (lambda () (= (length (e2e-diags)) 2)))
      (e2e-check "diagnostics after an edit that adds \"display stranger\" (line 13): Flymake marks 'stranger' too"
                 (equal (mapcar #'butlast (e2e-diags))
                        '((12 "mystery guest" eglot-error) (13 "stranger" eglot-error)))
                 (format "flymake diagnostics: %S" (e2e-diags)))
      (forward-line -1)
      (delete-region (point) (point-max))
      (forward-line -1)
      (insert "store mystery guest as \"Ann\"\n")
      (e2e-idle)
      (e2e-check "diagnostics after an edit that removes it and declares 'mystery guest': Flymake shows none"
                 (e2e-wait (lambda () (null (e2e-diags))))
                 (format "flymake diagnostics: %S" (e2e-diags)))))

  ;; 6. Rename: M-x eglot-rename on 'first name', new name 'given name'.
  ;; Line 8 has the name after an emoji (two UTF-16 code units, one
  ;; character for Emacs): a column counted in the wrong unit misplaces it.
  (e2e-step "rename"
    (with-current-buffer (get-file-buffer (e2e-file "greet.wfl"))
      (let ((before (e2e-text)))
        (e2e-goto 7 "first name")
        (e2e-command #'eglot-rename "given name")
        (e2e-check "rename 'first name' -> 'given name': its 5 occurrences change; the comment, the strings and the rest stay"
                   (equal (e2e-text)
                          (concat
                           "// Greets first name; the comment's \"first name\" stays.\n"
                           "define action called greet with name:\n"
                           "    display \"Hello, \" with name\n"
                           "end action\n"
                           "\n"
                           "store given name as \"Zoë 😀\"\n"
                           "call greet with given name\n"
                           "display \"😀 first name: \" with given name\n"
                           "check if given name is \"Zoë 😀\":\n"
                           "    display \"welcome back, \" with given name\n"
                           "end check\n"
                           "store mystery guest as \"Ann\"\n"
                           "display mystery guest\n"))
                   (format "before:\n%s\n      after:\n%s" before (e2e-text))))
      (e2e-idle)))

  ;; 6b. A rename sent before the change it follows: eglot 1.9 sends
  ;; textDocument/rename at once, and the didChange of a change made just
  ;; before only when Emacs is idle.  The server answers with the version
  ;; of the text it renamed in (versioned documentChanges, which eglot
  ;; declares), so eglot refuses the edit instead of applying it to columns
  ;; that have moved since; once the change is sent, the same rename works.
  (e2e-step "stale rename"
    (with-current-buffer (get-file-buffer (e2e-file "greet.wfl"))
      (e2e-idle)
      (goto-char (point-min))
      (forward-line 9)
      (insert "    // moved along\n")
      (let ((before (e2e-text))
            (refused nil))
        (e2e-goto 6 "given name")
        (condition-case err
            (e2e-command #'eglot-rename "known name")
          (error (setq refused (error-message-string err))))
        (e2e-check "a rename computed on the text before an unsent change is refused by eglot (\"require version\"); the buffer keeps its text"
                   (and refused (string-match-p "require version" refused) (equal (e2e-text) before))
                   (format "error %S\n      before:\n%s\n      after:\n%s" refused before (e2e-text)))
        (e2e-idle)
        (e2e-goto 6 "given name")
        (e2e-command #'eglot-rename "known name")
        (e2e-check "the same rename after the change was sent: every 'given name' becomes 'known name', the new line stays"
                   (equal (e2e-text) (replace-regexp-in-string "given name" "known name" before t t))
                   (format "before:\n%s\n      after:\n%s" before (e2e-text))))
      (e2e-idle)))

  ;; 6c. Rename across include: main.wfl includes lib/util.wfl, which
  ;; includes lib/shapes.wfl, which declares Shape with property label
  ;; (testdata/e2e/lsp/include/, copied beside the other files).  M-x
  ;; eglot-rename on 'label' in main's "display box.label" renames the
  ;; property in all three files: eglot asks whether to edit the three
  ;; (the user answers y) and visits the two that are not open.
  (e2e-step "rename across include"
    (let* ((names '("main.wfl" "lib/util.wfl" "lib/shapes.wfl"))
           (before (mapcar (lambda (n)
                             (with-temp-buffer
                               (insert-file-contents (e2e-file n))
                               (cons n (e2e-text))))
                           names)))
      (e2e-check "visiting main.wfl attaches it to the same server"
                 (and (e2e-visit (e2e-file "main.wfl")) (eq (eglot-current-server) e2e-server)))
      (e2e-goto 10 "label")
      (let (asked)
        (cl-letf (((symbol-function 'y-or-n-p) (lambda (prompt) (setq asked prompt) t)))
          (e2e-command #'eglot-rename "caption"))
        (e2e-check "rename across include: eglot asks to edit the three files"
                   (and asked (cl-every (lambda (n) (string-match-p (regexp-quote n) asked)) names))
                   (format "asked: %S" asked)))
      (dolist (n names)
        (let* ((buf (find-buffer-visiting (e2e-file n)))
               (got (and buf (with-current-buffer buf (e2e-text))))
               (old (cdr (assoc n before))))
          (e2e-check (format "rename across include: 'label' (declared in lib/shapes.wfl) renamed 'caption' from main.wfl: %s has its %d places renamed and nothing else"
                             n (1- (length (split-string old "label"))))
                     (equal got (replace-regexp-in-string "label" "caption" old t t))
                     (format "after:
%s" got))))
      (e2e-idle)))

  ;; 7. Formatting: M-x eglot-format-buffer gives the canonical text.
  (e2e-step "formatting"
    (e2e-check "visiting messy.wfl attaches it to the same server"
               (and (e2e-visit (e2e-file "messy.wfl")) (eq (eglot-current-server) e2e-server)))
    (e2e-command #'eglot-format-buffer)
    (e2e-check "formatting: eglot-format-buffer turns messy.wfl into the canonical text"
               (equal (e2e-text)
                      (concat "store level as 0\n"
                              "check if level is 0:\n"
                              "    display \"zero\"\n"
                              "otherwise:\n"
                              "    display level\n"
                              "end check\n"
                              "count from 1 to 3:\n"
                              "    display \"n\"\n"
                              "end count\n"))
               (format "buffer:\n%s" (e2e-text)))
    (e2e-idle))

  ;; 8. A quick fix: M-x eglot-code-actions on the misspelled 'totl'
  ;; offers "Change 'totl' to 'total'"; choosing it fixes the line, and
  ;; the error goes away.
  (e2e-step "quick fix"
    (e2e-check "visiting typo.wfl attaches it to the same server"
               (and (e2e-visit (e2e-file "typo.wfl")) (eq (eglot-current-server) e2e-server)))
    (e2e-wait (lambda () (e2e-diags)))
    (e2e-check "diagnostics: Flymake marks 'totl' (line 2) as an error, and nothing else"
               (equal (mapcar #'butlast (e2e-diags)) '((2 "totl" eglot-error)))
               (format "flymake diagnostics: %S" (e2e-diags)))
    ;; Tolerant diagnostics: the user starts a third line and has not
    ;; finished it.  Flymake marks its parse error and keeps 'totl'; once
    ;; the line is taken out again, 'totl' alone is left.
    (goto-char (point-max))
    (insert "store z as")
    (e2e-idle)
    (cl-flet ((parse-error-on-3 (diags)
                (cl-some (lambda (d) (and (= (nth 0 d) 3) (eq (nth 2 d) 'eglot-error)
                                          (string-match-p "expected an expression" (nth 3 d))))
                         diags)))
      (e2e-wait (lambda () (parse-error-on-3 (e2e-diags))))
      (let ((got (e2e-diags)))
        (e2e-check "tolerant diagnostics: while \"store z as\" (line 3) is unfinished, Flymake marks its parse error and still marks 'totl' (line 2)"
                   (and (parse-error-on-3 got) (member '(2 "totl" eglot-error) (mapcar #'butlast got))
                        (= (length got) 2))
                   (format "flymake diagnostics: %S" got))))
    (delete-region (progn (goto-char (point-max)) (line-beginning-position)) (point-max))
    (e2e-idle)
    (e2e-check "tolerant diagnostics: with line 3 taken out again, Flymake marks 'totl' (line 2) alone"
               (e2e-wait (lambda () (equal (mapcar #'butlast (e2e-diags)) '((2 "totl" eglot-error)))))
               (format "flymake diagnostics: %S" (e2e-diags)))
    (e2e-goto 2 "totl")
    (let* ((choice "Change 'totl' to 'total'")
           (offered 'none)
           (last-nonmenu-event ?\r))     ; invoked from the keyboard, not a menu
      ;; The user picks CHOICE from the completion list eglot offers.
      (cl-letf (((symbol-function 'completing-read)
                 (lambda (_prompt collection &rest _)
                   (setq offered (mapcar #'car collection))
                   (if (member choice offered) choice
                     (error "Not offered: %S" choice)))))
        (e2e-command #'eglot-code-actions))
      (e2e-check (format "quick fix: eglot-code-actions on 'totl' offers %S" choice)
                 (member choice offered)
                 (format "offered: %S" offered))
      (e2e-check "quick fix applied: the buffer reads \"store total as 3\\ndisplay total\\n\""
                 (equal (e2e-text) "store total as 3\ndisplay total\n")
                 (format "buffer:\n%s" (e2e-text))))
    (e2e-idle)
    (e2e-check "diagnostics after the quick fix: Flymake shows none"
               (e2e-wait (lambda () (null (e2e-diags))))
               (format "flymake diagnostics: %S" (e2e-diags))))

  ;; 9. An action typed into the middle of scores.wfl key by key, each key
  ;; run by the command loop (RET indents as the line above, as
  ;; electric-indent-mode does in a prog-mode) and sent when Emacs is idle,
  ;; as after a pause; its `end action' is never typed.  Completion at point
  ;; inside the unfinished body offers its parameter and what it stored;
  ;; below it, ElDoc shows a name's hover, imenu still lists every symbol,
  ;; and Flymake marks nothing but the missing closers.
  (e2e-step "unfinished block"
    (e2e-check "visiting scores.wfl attaches it to the same server"
               (and (e2e-visit (e2e-file "scores.wfl")) (eq (eglot-current-server) e2e-server)))
    (e2e-command #'move-beginning-of-line 1)   ; Flymake's first check
    (let* ((header (save-excursion             ; the line after the first action
                     (goto-char (point-min))
                     (re-search-forward "^end action$")
                     (1+ (line-number-at-pos))))
           (block '("define action called tally with parameters scores:"
                    "    store total as 0"
                    "    for each s in scores:"
                    "        change total to total plus s"))
           (below (+ header (length block)))   ; the first line after the block
           (want (with-temp-buffer
                   (insert-file-contents (e2e-file "scores.wfl"))
                   (goto-char (point-min))
                   (forward-line (1- header))
                   (insert (string-join block "\n") "\n")
                   (e2e-text)))
           (keys 0) (changes 0)
           (count-changes (lambda (_conn method &rest _)
                            (when (eq method :textDocument/didChange) (cl-incf changes))))
           before symbols)
      (cl-labels ((current ()
                    (equal (gethash (eglot--path-to-uri (buffer-file-name)) e2e-published)
                           eglot--versioned-identifier))
                  (outline ()
                    ;; M-x imenu's index: "Kind name line" for each entry.
                    (let (items)
                      (cl-labels ((walk (prefix index)
                                    (dolist (e (remove imenu--rescan-item index))
                                      (if (imenu--subalist-p e)
                                          (walk (concat prefix (car e) " ") (cdr e))
                                        (push (format "%s%s %d" prefix (car e) (line-number-at-pos (cdr e))) items)))))
                        (setq imenu--index-alist nil)
                        (walk "" (imenu--make-index-alist t)))
                      (nreverse items)))
                  (type (text)
                    ;; Each key as the command loop runs it, then Emacs
                    ;; idles: eglot sends the change.
                    (dolist (key (string-to-list text))
                      (execute-kbd-macro (if (eq key ?\n) (kbd "RET") (string key)))
                      (cl-incf keys)
                      (e2e-idle)))
                  (offered ()
                    ;; M-x completion-at-point (C-M-i); the candidates are
                    ;; what a completion UI would list.
                    (let* ((got 'none)
                           (completion-in-region-function
                            (lambda (start end collection pred)
                              (setq got (all-completions (buffer-substring-no-properties start end) collection pred))
                              nil)))
                      (e2e-command #'completion-at-point)
                      got))
                  (closer-p (d) (and (eq (nth 2 d) 'eglot-error)
                                     (string-match-p "expected 'end \\(action\\|for\\)'" (nth 3 d)))))
        (e2e-check "unfinished block: scores.wfl's diagnostics are published"
                   (e2e-wait #'current) (format "flymake diagnostics: %S" (e2e-diags)))
        (setq before (e2e-diags) symbols (outline))
        (goto-char (point-min))
        (forward-line (- header 2))
        (goto-char (line-end-position))
        (advice-add 'jsonrpc-notify :before count-changes)
        (type "\ndefine action called tally with parameters scores:\n    store total as 0\nfor each s in sc")
        (let ((got (offered)))
          (e2e-check "unfinished block: completion at point after \"for each s in sc\" offers the parameter \"scores\""
                     (member "scores" got) (format "offered: %S" got)))
        (type "ores:\n    change total to t")
        (let ((got (offered)))
          (e2e-check "unfinished block: completion at point after \"change total to t\" offers \"total\", which the block stored"
                     (member "total" got) (format "offered: %S" got)))
        (type "otal plus s")
        (advice-remove 'jsonrpc-notify count-changes)
        (e2e-check (format "unfinished block: %d keys typed the block after the first action, no closer, in %d didChange notifications" keys changes)
                   (and (equal (e2e-text) want) (= changes keys))
                   (format "buffer:\n%s" (e2e-text)))

        ;; M-x eldoc on "best score" in the last line.
        (goto-char (point-max))
        (search-backward "with best score")
        (let ((line (line-number-at-pos))
              (decl (save-excursion (goto-char (point-min))
                                    (re-search-forward "^store best score")
                                    (line-number-at-pos))))
          (e2e-goto line "best score")
          (e2e-eldoc)
          (e2e-check (format "unfinished block: M-x eldoc on \"best score\" (line %d) below it shows \"variable best score: Number\", declared on line %d" line decl)
                     (e2e-wait (lambda () (string-match-p (format "variable best score: Number\\(.\\|\n\\)*Declared on line %d\\." decl)
                                                          (or (e2e-eldoc-text) ""))))
                     (format "*eldoc* buffer: %S" (e2e-eldoc-text))))

        ;; imenu: what it listed before (lines below the block moved
        ;; down), and tally with its parameter on the block's lines.
        (let* ((after (outline))
               (own (cl-remove-if-not (lambda (s) (let ((n (string-to-number (car (last (split-string s " "))))))
                                                    (and (>= n header) (< n below))))
                                      after))
               (moved (mapcar (lambda (s)
                                (let ((n (string-to-number (car (last (split-string s " "))))))
                                  (replace-regexp-in-string "[0-9]+\\'" (number-to-string (if (< n header) n (- n (length block)))) s)))
                              (cl-set-difference after own :test #'equal))))
          (e2e-check "unfinished block: imenu lists every symbol it listed before, and tally with its parameter on the block's lines"
                     (and (equal moved symbols)
                          (cl-some (lambda (s) (string-match-p "\\_<tally [0-9]+\\'" s)) own)
                          (cl-some (lambda (s) (string-match-p "\\_<scores [0-9]+\\'" s)) own))
                     (format "before: %S\n      after: %S" symbols after)))

        ;; Flymake below the block: the closers' errors, and what was there.
        (e2e-check "unfinished block: the diagnostics of the typed text are published"
                   (e2e-wait #'current) (format "flymake diagnostics: %S" (e2e-diags)))
        (let ((had (mapcar (lambda (d) (cons (+ (car d) (length block)) (cdr d)))
                           (cl-remove-if (lambda (d) (< (car d) header)) before)))
              (now (e2e-diags)))
          (e2e-check (format "unfinished block: below it, Flymake marks the missing \"end action\" and what it marked before (%S), nothing else" had)
                     (and (cl-some (lambda (d) (and (closer-p d) (string-match-p "'tally'" (nth 3 d)))) now)
                          (equal (cl-remove-if (lambda (d) (or (< (car d) below) (closer-p d))) now) had))
                     (format "flymake diagnostics: %S" now))))))

  ;; 10. Shutdown: the server answers eglot's shutdown request and exits
  ;; with status 0 on the exit notification.  (eglot-shutdown sends the
  ;; same two messages but deletes the process right after, without
  ;; waiting for it to exit, so the exit status would say nothing.)
  (e2e-step "shutdown"
    (let ((proc (jsonrpc--process e2e-server)))
      (setf (eglot--shutdown-requested e2e-server) t)
      (let ((answer (condition-case err
                        (list :result (jsonrpc-request e2e-server :shutdown nil :timeout e2e-timeout))
                      (error (list :error err)))))
        (e2e-check "shutdown: wfl-lsp answers the shutdown request with null"
                   (equal answer '(:result nil)) (format "%S" answer)))
      (jsonrpc-notify e2e-server :exit nil)
      (e2e-wait (lambda () (not (process-live-p proc))))
      (e2e-check "exit: wfl-lsp exits by itself with status 0"
                 (and (eq (process-status proc) 'exit) (eq (process-exit-status proc) 0))
                 (format "process status %s, exit status %s" (process-status proc) (process-exit-status proc))))))

(condition-case err
    (e2e-main)
  (error
   (e2e-check "the suite ran to its end" nil
              (format "%s\n      eglot events (end):\n%s" (error-message-string err) (e2e-events-tail)))))

(delete-directory e2e-dir t)
(if (and (zerop e2e-failures) (> e2e-checks 0))
    (progn (e2e-log "PASS emacs/eglot (%d checks, %.1f s)" e2e-checks (- (float-time) e2e-start))
           (kill-emacs 0))
  (e2e-log "FAIL emacs/eglot (%d of %d checks failed)" e2e-failures e2e-checks)
  (kill-emacs 1))

;;; eglot.el ends here
