;;; Test-only stand-in for the C side of GNOME AisleRiot, so that its compiled game rules
;;; (the Debian package's .go files) run under plain guile-3.0 without a window.
;;;
;;; It defines the module (aisleriot interface) with the primitives AisleRiot's game scripts
;;; call, draws random numbers from the system GLib (libglib-2.0) through Guile's FFI, and then
;;; reads one command per line on standard input and answers on standard output (see
;;; tests/aisleriot/harness.py for the protocol). Usage:
;;;   guile-3.0 --no-auto-compile -s shim.scm GUILE_DIR GAME
;;; where GUILE_DIR holds aisleriot/api.go and GAME.go.

(define-module (aisleriot interface)
  #:use-module (system foreign)
  #:export (set-feature-word! get-feature-word set-statusbar-message-c reset-surface
            add-slot get-slot set-cards-c! set-slot-y-expansion! set-slot-x-expansion!
            set-lambda set-lambda! aisleriot-random click-to-move? update-score
            get-timeout set-timeout! delayed-call undo-set-sensitive redo-set-sensitive
            dealable-set-sensitive
            shim-state))

;; --- GLib's generator, called through the FFI (the real g_rand, not a copy of it).
(define libglib (dynamic-link "libglib-2.0.so.0"))
(define g-rand-new-with-seed
  (pointer->procedure '* (dynamic-func "g_rand_new_with_seed" libglib) (list uint32)))
(define g-rand-int-range
  (pointer->procedure int32 (dynamic-func "g_rand_int_range" libglib) (list '* int32 int32)))
(define g-rand-free
  (pointer->procedure void (dynamic-func "g_rand_free" libglib) (list '*)))

;; --- State kept by the C side in AisleRiot.
(define rand #f)
(define features 0)
(define slots '())            ; list of (id type cards), newest first
(define lambdas (make-hash-table))
(define score "")
(define statusbar "")
(define timeout 0)
(define pending-call #f)
(define dealable #f)

(define lambda-names
  '(new-game button-pressed button-released button-clicked button-double-clicked
    game-over winning-game hint get-options apply-options timeout droppable dealable))

(define (shim-state key)
  (case key
    ((rand) rand)
    ((features) features)
    ((slots) (reverse slots))
    ((lambdas) lambdas)
    ((score) score)
    ((statusbar) statusbar)
    ((pending-call) pending-call)
    ((dealable) dealable)
    (else (error "unknown shim state" key))))

(define (set-shim-rand! seed)
  (if rand (g-rand-free rand))
  (set! rand (g-rand-new-with-seed seed)))

(define (set-shim-pending-call! value) (set! pending-call value))
(define (set-shim-dealable! value) (set! dealable value))
(export set-shim-rand! set-shim-pending-call! set-shim-dealable!)

;; The C side keeps cards as bytes and hands out fresh lists (rank suit face-up?).
(define (normalise-cards cards)
  (if (list? cards)
      (map (lambda (c) (list (car c) (cadr c) (if (caddr c) #t #f))) cards)
      '()))

(define (find-slot id)
  (let ((s (assv id slots)))
    (or s (error "no such slot" id))))

(define (set-feature-word! word) (set! features word) '())
(define (get-feature-word) features)
(define (set-statusbar-message-c message)
  (if (string? message) (set! statusbar message))
  '())
(define (reset-surface) (set! slots '()) '())

;; slot data: (id cards (placement-kind (x y) ...) type)
(define (add-slot slot-data)
  (let ((id (car slot-data))
        (cards (cadr slot-data))
        (type (if (null? (cdddr slot-data)) 'unknown (cadddr slot-data))))
    (set! slots (cons (list id type (normalise-cards cards)) slots))
    '()))

(define (get-slot id)
  (let ((s (assv id slots)))
    (if s (list id (normalise-cards (caddr s))) '())))

(define (set-cards-c! id cards)
  (let ((s (find-slot id)))
    (set-car! (cddr s) (normalise-cards cards))
    #t))

(define (set-slot-y-expansion! id value) '())
(define (set-slot-x-expansion! id value) '())

;; Feature bits as in AisleRiot's game.h: droppable 1, score hidden 2, dealable 4.
(define (set-lambda new-game pressed released clicked dbl-clicked game-over won hint . rest)
  (for-each (lambda (name proc) (hashq-set! lambdas name proc))
            '(new-game button-pressed button-released button-clicked button-double-clicked
              game-over winning-game hint)
            (list new-game pressed released clicked dbl-clicked game-over won hint))
  (hashq-set! lambdas 'get-options (list-ref rest 0))
  (hashq-set! lambdas 'apply-options (list-ref rest 1))
  (hashq-set! lambdas 'timeout (list-ref rest 2))
  (let ((more (list-tail rest 3)))
    (if (logtest features 1)
        (begin (hashq-set! lambdas 'droppable (car more)) (set! more (cdr more)))
        (hashq-remove! lambdas 'droppable))
    (if (logtest features 4)
        (hashq-set! lambdas 'dealable (car more))
        (hashq-remove! lambdas 'dealable)))
  '())

(define (set-lambda! name proc)
  (if (memq name lambda-names)
      (begin (hashq-set! lambdas name proc) '())
      (throw 'aisleriot-invalid-call "Unknown lambda name in set-lambda!")))

(define (aisleriot-random n)
  (g-rand-int-range rand 0 n))

(define (click-to-move?) #f)
(define (update-score new-score) (set! score new-score) new-score)
(define (get-timeout) timeout)
(define (set-timeout! value) (set! timeout value) value)
(define (delayed-call callback)
  (if pending-call
      (throw 'aisleriot-invalid-call "Already have a delayed callback pending.")
      (begin (set! pending-call callback) #t)))
(define (undo-set-sensitive state) '())
(define (redo-set-sensitive state) '())
(define (dealable-set-sensitive state) (set! dealable (if state #t #f)) '())

;;; ------------------------------------------------------------------------------------------
;;; The driver: load the game and answer commands, in the user module like AisleRiot does.

(define-module (patiencebook aisleriot-driver)
  #:use-module (aisleriot interface)
  #:use-module (ice-9 rdelim)
  #:use-module (ice-9 match))

(define args (command-line))
(define guile-dir (list-ref args 1))
(define game-name (list-ref args 2))

(set! %load-compiled-path (cons guile-dir %load-compiled-path))
(set! %load-path (cons guile-dir %load-path))

;; Game states as in AisleRiot's game.c: begin, running, over, won.
(define state 'begin)

(define (lam name) (hashq-ref (shim-state 'lambdas) name))
(define (user-call name . args)
  (apply (module-ref (resolve-module '(guile-user)) name) args))
(define (api name) (module-ref (resolve-interface '(aisleriot api)) name))

;; AisleRiot's game_scm_new_game: deal, and deal again while the new game cannot go on.
(define (new-game seed)
  (set-shim-rand! seed)
  (set-shim-pending-call! #f)
  (set! state 'begin)
  (let loop ()
    ((lam 'new-game))
    ((api 'start-game))
    (if (not ((lam 'game-over))) (loop)))
  (if (lam 'dealable) (set-shim-dealable! (if ((lam 'dealable)) #t #f))))

;; aisleriot_game_test_end_of_game
(define (test-end-of-game)
  ((api 'end-move))
  (if (lam 'dealable) (set-shim-dealable! (if ((lam 'dealable)) #t #f)))
  (if (memq state '(begin running))
      (if (not ((lam 'game-over)))
          (set! state (if ((lam 'winning-game)) 'won 'over)))))

(define (start!) (if (eq? state 'begin) (set! state 'running)))

;; The main loop runs a delayed call 50 ms after it was asked for, then tests the end of game
;; (src/game.c, scm_execute_delayed_function); a callback may ask for the next one (FreeCell's
;; moves to the foundations, Klondike's and Gypsy's play of every card a foundation takes).
;; Here the chain runs to its end after the action, before anything else is asked.
(define max-delayed-calls 10000)

(define (run-pending-calls after-each)
  (let loop ((n 0))
    (let ((callback (shim-state 'pending-call)))
      (if callback
          (if (>= n max-delayed-calls)
              (throw 'shim-delayed-calls "delayed calls did not stop" n)
              (begin
                (set-shim-pending-call! #f)
                (callback)
                (after-each)
                (loop (+ n 1))))))))

(define (run-delayed-calls) (run-pending-calls test-end-of-game))

(define (slot-cards id) ((api 'get-cards) id))
(define (set-slot-cards! id cards) ((api 'set-cards!) id cards))

(define (truth x) (if x "t" "f"))

;; A drag as AisleRiot's board does it: press on the n-th card from the top, lift, drop on `to`.
(define (drag from n to)
  (start!)
  (let* ((cards (slot-cards from)))
    (if (or (< n 1) (> n (length cards)))
        "refused-press"
        (let ((moving (list-head cards n)))
          (if (not ((lam 'button-pressed) from moving))
              "refused-press"
              (begin
                ((api 'record-move) from cards)
                (set-slot-cards! from (list-tail cards n))
                (let* ((drop-ok (if (lam 'droppable) ((lam 'droppable) from moving to) #f))
                       (moved ((lam 'button-released) from moving to)))
                  (if moved
                      (begin ((api 'end-move)) (test-end-of-game))
                      (begin
                        ((api 'discard-move))
                        (set-slot-cards! from (append moving (slot-cards from)))))
                  (string-append (if moved "moved" "refused") " droppable=" (truth drop-ok)))))))))

(define (click-like name id)
  (start!)
  ((api 'record-move) -1 '())
  (let ((done ((lam name) id)))
    (if done ((api 'end-move)) ((api 'discard-move)))
    (test-end-of-game)
    (truth done)))

(define (deal-next)
  (start!)
  ((api 'record-move) -1 '())
  (user-call 'do-deal-next-cards)
  ((api 'end-move))
  (test-end-of-game)
  "t")

(define (card->string c)
  (string-append (number->string (car c)) ":" (number->string (cadr c)) ":"
                 (if (caddr c) "u" "d")))

;; One line per slot: "slot ID TYPE" then its cards bottom to top.
(define (print-slots)
  (for-each
   (lambda (s)
     (display (string-append "slot " (number->string (car s)) " " (symbol->string (cadr s))))
     (for-each (lambda (c) (display " ") (display (card->string c))) (reverse (caddr s)))
     (newline))
   (shim-state 'slots)))

;;; ------------------------------------------------------------------------------------------
;;; Every player action at once, computed here so that one round trip answers it.

(define (api-var name) (module-ref (resolve-interface '(aisleriot api)) name))
(define (slot-ids) (map car (shim-state 'slots)))

;; A probe of a click or double-click must leave no trace: the state is taken with api.scm's own
;; undo record (every slot, score, FLIP-COUNTER, status text, the game's saved variables) and put
;; back with its eval-move; the C side's dealable flag and a pending delayed call are kept here.
(define (take-state)
  ((api 'record-move) -1 '())
  (let ((m (api-var 'MOVE)))
    ((api 'discard-move))
    (list m (shim-state 'dealable) (shim-state 'pending-call))))

(define (put-state saved)
  ((api 'eval-move) (car saved))
  ((api 'discard-move))
  (set-shim-dealable! (cadr saved))
  (set-shim-pending-call! (caddr saved)))

(define (board) (map (lambda (s) (caddr s)) (shim-state 'slots)))

;; Drags as the board offers them (src/board-noclutter.c): a press on any card of a slot hands
;; button-pressed the cards from it to the top, top first; while they are lifted the slot holds
;; the rest, and droppable? is asked for every slot the cards could be dropped on.
(define (legal-drags)
  (let ((pressed (lam 'button-pressed))
        (droppable (lam 'droppable))
        (ids (slot-ids))
        (out '()))
    (for-each
     (lambda (from)
       (let ((cards (slot-cards from)))
         (let loop ((n 1))
           (if (<= n (length cards))
               (let ((moving (list-head cards n)))
                 (if (pressed from moving)
                     (begin
                       (set-slot-cards! from (list-tail cards n))
                       (for-each (lambda (to)
                                   (if (and droppable (droppable from moving to))
                                       (set! out (cons (list from n to) out))))
                                 ids)
                       (set-slot-cards! from cards)))
                 (loop (+ n 1)))))))
     ids)
    (reverse out)))

;; The slots where a click (name: button-clicked) or double-click (button-double-clicked)
;; changes the cards or the score; each is tried from the current state and undone. Delayed
;; calls it asks for run to their end first, as after a real action, so a double-click whose
;; cards move only in a delayed call counts too. Putting the state back is slow (eval per saved
;; variable), so it is skipped when the lambda said it did nothing, asked for no delayed call,
;; and the cards and score are unchanged.
(define (probe-slots name saved)
  (let ((before (board))
        (score-before ((api 'get-score)))
        (out '()))
    (for-each
     (lambda (id)
       (let* ((done ((lam name) id))
              (delayed (not (eq? (shim-state 'pending-call) (caddr saved)))))
         (if delayed (run-pending-calls (lambda () #t)))
         (let ((changed (or (not (equal? (board) before))
                            (not (equal? ((api 'get-score)) score-before)))))
           (if changed (set! out (cons id out)))
           (if (or done delayed changed) (put-state saved)))))
     (slot-ids))
    (reverse out)))

(define (legal-actions)
  (let ((saved (take-state)))
    (append (map (lambda (d) (cons 'drag d)) (legal-drags))
            (map (lambda (id) (list 'click id)) (probe-slots 'button-clicked saved))
            (map (lambda (id) (list 'dclick id)) (probe-slots 'button-double-clicked saved)))))

(define (action->string a)
  (string-join (cons (symbol->string (car a)) (map number->string (cdr a))) " "))

(define (print-actions)
  (for-each (lambda (a) (display (action->string a)) (newline)) (legal-actions)))

;; Everything the comparison reads after a step: slots, score, game state, actions.
(define (print-look)
  (print-slots)
  (display (string-append "score " (shim-state 'score) "\n"))
  (display (string-append "state " (symbol->string state) "\n"))
  (print-actions))

;; A real double click is a click (button-clicked on release) and then button-double-clicked;
;; "dclick" alone is only the second half, as our engine's double-click move is.
(define (perform a)
  (match a
    (('drag from n to) (drag from n to))
    (('click id) (click-like 'button-clicked id))
    (('dclick id) (click-like 'button-double-clicked id))))

;;; A timed playout loop for the benchmark: random legal actions, timed inside guile.

(define (playouts seeds steps rng-seed)
  (let ((rng (seed->random-state rng-seed))
        (actions 0)
        (elapsed 0))
    (for-each
     (lambda (seed)
       (new-game seed)
       (run-delayed-calls)
       (let ((t0 (get-internal-real-time)))
         ;; A game's own rules may fail on an action its board would never offer (Cruel, after a
         ;; drag of several cards from a pile that shows only its top card): the deal ends there.
         (catch #t
           (lambda ()
             (let loop ((k 0))
               (if (and (< k steps) (memq state '(begin running)))
                   (let ((choices (legal-actions)))
                     (if (pair? choices)
                         (begin
                           (perform (list-ref choices (random (length choices) rng)))
                           (run-delayed-calls)
                           (set! actions (+ actions 1))
                           (loop (+ k 1))))))))
           (lambda (key . rest) #f))
         (set! elapsed (+ elapsed (- (get-internal-real-time) t0)))))
     seeds)
    (string-append (number->string actions) " "
                   (number->string (exact->inexact (/ elapsed internal-time-units-per-second))))))

;;; Game options, as AisleRiot's Options menu sets them (src/game.c,
;;; aisleriot_game_get_options and aisleriot_game_change_options): get-options lists entries
;;; (NAME VALUE), numbered by bits 1, 2, 4 … in list order; an atom between them switches from
;;; check boxes to a group of radio buttons and back. Setting options is change_options with
;;; every bit in the mask: each entry's value becomes its bit of VALUE, and apply-options gets
;;; the changed list. AisleRiot deals a new game after that; so does the caller here.

(define (option-list)
  (let ((get (lam 'get-options)))
    (let ((options (if (procedure? get) (get) #f)))
      (if (list? options) options '()))))

;; One line per option: "option BIT KIND GROUP SET NAME"; KIND is check or radio, GROUP counts
;; the radio groups from 1 (0 for a check box), SET is t or f.
(define (print-options)
  (let loop ((entries (option-list)) (bit 1) (radio #f) (group 0))
    (if (pair? entries)
        (let ((entry (car entries)))
          (if (list? entry)
              (begin
                (display (string-append "option " (number->string bit) " "
                                        (if radio "radio" "check") " "
                                        (number->string (if radio group 0)) " "
                                        (truth (cadr entry)) " " (car entry) "\n"))
                (loop (cdr entries) (* bit 2) radio group))
              (loop (cdr entries) bit (not radio) (if radio group (+ group 1))))))))

(define (set-options! value)
  (let ((options (option-list))
        (apply-options (lam 'apply-options)))
    (let loop ((entries options) (bit 1) (result 0))
      (if (pair? entries)
          (let ((entry (car entries)))
            (if (list? entry)
                (begin
                  (list-set! entry 1 (logtest value bit))
                  (loop (cdr entries) (* bit 2) (if (cadr entry) (logior result bit) result)))
                (loop (cdr entries) bit result)))
          (begin
            (if (and (pair? options) (procedure? apply-options)) (apply-options options))
            result)))))

(define (reply . parts)
  (for-each display parts)
  (newline)
  (force-output))

(define (handle words)
  (match words
    (("new" seed) (new-game (string->number seed)) (run-delayed-calls) (reply "ok"))
    (("slots") (print-slots) (reply "end"))
    (("drag" from n to)
     (let ((r (drag (string->number from) (string->number n) (string->number to))))
       (run-delayed-calls) (reply r)))
    (("click" id) (let ((r (click-like 'button-clicked (string->number id))))
                    (run-delayed-calls) (reply r)))
    (("dclick" id) (let ((r (click-like 'button-double-clicked (string->number id))))
                     (run-delayed-calls) (reply r)))
    (("deal") (let ((r (deal-next))) (run-delayed-calls) (reply r)))
    (("actions") (print-actions) (reply "end"))
    (("look") (print-look) (reply "end"))
    (("step" kind . numbers)
     (let ((r (perform (cons (string->symbol kind) (map string->number numbers)))))
       (run-delayed-calls)
       (display (string-append "result " r "\n"))
       (print-look)
       (reply "end")))
    (("playouts" steps rng-seed . seeds)
     (reply (playouts (map string->number seeds) (string->number steps) (string->number rng-seed))))
    (("pending") (reply (truth (shim-state 'pending-call))))
    (("options") (print-options) (reply "end"))
    (("set-options" value) (reply (number->string (set-options! (string->number value)))))
    (("score") (reply (shim-state 'score)))
    (("state") (reply (symbol->string state)))
    (("status") (reply (shim-state 'statusbar)))
    (_ (reply "error unknown command"))))

(define (main)
  ;; AisleRiot runs everything in the user module; api.scm's undo records evaluate the game's
  ;; saved variables in (current-module), so it must stay the game's module.
  (set-current-module (resolve-module '(guile-user)))
  (primitive-load-path game-name)
  (reply "ready")
  (let loop ()
    (let ((line (read-line)))
      ;; "quit" is read here: (exit) inside the catch below would be caught as an error.
      (if (not (or (eof-object? line) (string=? line "quit")))
          (begin
            (catch #t
              (lambda () (handle (string-tokenize line)))
              (lambda (key . rest)
                (reply "error " key " " (with-output-to-string (lambda () (write rest))))))
            (loop))))))

(main)
