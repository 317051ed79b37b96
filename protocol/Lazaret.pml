/*
 * Lazaret.pml: the Promela mirror of protocol/Lazaret.tla (the normative
 * model), checked exhaustively by Spin in CI (tests/model/check-model.sh).
 *
 * Faithfulness rules (kept by hand, partly checked by the script):
 *  - the same variables with the same names and values (TLA+ strings become
 *    mtype constants with a prefix per domain: D_ dphase, S_ session state,
 *    R_ request state, O_ outcome; "running" -> D_RUNNING / R_RUNNING);
 *  - one inline per TLA+ action, with the same name and parameters; each is
 *    "guard -> effect" and runs as ONE d_step, so one Spin transition is one
 *    TLA+ step (TLC's distinct-state count and Spin's stored-state count of
 *    the safety run, built with -DNO_ENV_STOP, are the same number);
 *  - the main loop offers every action for every parameter value, like the
 *    disjunction Next (existential choices of WriteRequest are enumerated);
 *  - one ltl block per TLA+ property, with the same name.
 * Arrays are indexed 1..N like the TLA+ functions (index 0 is unused and
 * stays at its initial value). The enumerations in the main loop are written
 * for the constants below, which must equal protocol/Lazaret.cfg (the CI
 * script compares them).
 *
 * Mutants: compiling with -DMUTANT_<NAME> removes or weakens the guard that
 * protects one property; CI requires Spin to find a counterexample for each
 * (a property no mutant can break would be vacuous). See protocol/README.md.
 */

#define NS          2
#define NR          2
#define MaxFailures 1
#define MaxReattach 1
#define MaxReplays  1
#define ESC_SESSION_MAX 2
#define ESC_MAX     2

#define MaxInst   NS
#define FORGED    0
#define OTHERDOM  (MaxInst + 1)
#define CLIROLE   (MaxInst + 2)
#define AnchorOf(s, i)  (((i) - 1) * NS + (s))
#define CMD_RULE   1
#define CMD_OTHER  2
#define CMD_ALT    3
#define CMD_EDITED 4
/* Sets of argvs (SUBSET Asked in the TLA+) are bit masks: bit c is argv c
 * (written with / and %: Spin's ltl parser takes no bitwise operators). */
#define Bit(c)      (1 << (c))
#define In(c, m)    ((((m) / Bit(c)) % 2) == 1)
#define InitRules   Bit(CMD_RULE)
#define RuleMatch(c) In(c, rules)
#define RULE    (NS + 1)
#define SESSION (NS + 2)
#define AdversaryReq 1

mtype = {
  D_ABSENT, D_STARTING, D_RUNNING, D_STOPPING, D_RECOVERING, D_FAILED,
  S_IDLE, S_LAUNCHING, S_LIVE, S_ENDED,
  R_NONE, R_REJECTED, R_WAITING, R_SHOWN, R_APPROVED, R_RUNNING,
  R_DELIVERED, R_DROPPED,
  O_NONE, O_COMPLETED, O_DENIED, O_TIMEDOUT, O_CANCELLED, O_FAILED
};

/* ---- Domain lifecycle ---- */
mtype dphase = D_ABSENT;
byte  coord = 0;
byte  inst = 0;
bool  alive[MaxInst + 1];
byte  trust = 0;
byte  failures = 0;
bool  anc = false;
byte  sdc = 0;
byte  policy = 0;
byte  sbx = 0;
/* ---- Client Sessions ---- */
mtype ss[NS + 1] = S_IDLE;
bool  att[NS + 1];
byte  sinst[NS + 1];
byte  reattaches = 0;
bool  tty[NS + 1];
/* ---- Escalation Mailbox (written by the untrusted sandbox) ---- */
bool  written[NR + 1];
byte  mbox[NR + 1];
byte  replays = 0;
byte  rsess[NR + 1];
byte  rcert[NR + 1];
byte  ranc[NR + 1];
byte  rcmd[NR + 1];
/* ---- Coordinator view of each request ---- */
mtype rst[NR + 1] = R_NONE;
byte  approver[NR + 1];
byte  rapp[NR + 1];
byte  promptOn[NR + 1];
byte  hc[NR + 1];
byte  xcmd[NR + 1];
byte  ran[NR + 1];
byte  resultOf[NR + 1];
/* ---- Approvals that need no prompt (bit masks of argvs) ---- */
byte  sapp[NS + 1];
byte  rules = InitRules;
byte  saved = 0;
/* ---- session 1's further pending requests, counted, not tracked ---- */
byte  flood = 0;

/* Fairness mirror. TLA+: Spec has WF_vars(CoordStep): only the
 * coordinator's own steps are fair; the developer, the CLIs, the sandbox,
 * host commands and failures may stop acting at any time. Here: every
 * environment action is guarded by ENV_ON, and EnvStop (the environment
 * takes no further step) can happen at any time; the one process never
 * stops while a coordinator step is enabled. The safety run is built with
 * -DNO_ENV_STOP (stopping adds no reachable state of the TLA+ model), so
 * its state count equals TLC's. */
bool envStopped = false;
#define ENV_ON (!envStopped)

hidden byte k;   /* loop index inside one d_step; not part of the state */

/* ------------------------------------------------------------------ */
/* Helpers (same names as the TLA+ operators)                          */
/* ------------------------------------------------------------------ */
#define Owner (coord != 0 && alive[coord])
#define Active(x) ((x) == R_WAITING || (x) == R_SHOWN || (x) == R_APPROVED || \
                   (x) == R_RUNNING)
#define Live(s) (ss[s] == S_LAUNCHING || ss[s] == S_LIVE)

#ifdef MUTANT_NO_CERT_CHECK
#define CertOK(r) (true)
#else
#define CertOK(r) (rcert[r] == trust && sbx == trust)
#endif
#ifdef MUTANT_NO_ANCHOR_CHECK
#define AnchorOK(r) (true)
#else
#define AnchorOK(r) (ranc[r] == AnchorOf(rsess[r], coord))
#endif
/* SR-9, FR-10: bound to the current identity tuple. Bound is the TLA+
 * operator (used by the property); VerifyBound is what Verify checks, equal
 * to Bound unless a mutant removes one of its conjuncts. */
#define Bound(r) (trust != 0 && trust == coord && \
                  rcert[r] == trust && sbx == trust && \
                  rsess[r] >= 1 && rsess[r] <= NS && \
                  ss[rsess[r]] == S_LIVE && sinst[rsess[r]] == coord && \
                  ranc[r] == AnchorOf(rsess[r], coord))
#define VerifyBound(r) (trust != 0 && trust == coord && CertOK(r) && \
                  rsess[r] >= 1 && rsess[r] <= NS && \
                  ss[rsess[r]] == S_LIVE && sinst[rsess[r]] == coord && AnchorOK(r))

/* FR-5: the result record goes to the result path of request ID r, which
 * only r's Escalation Client polls. */
inline DeliverResult(r) {
#ifdef MUTANT_RESULT_BY_SESSION
  /* correlates by session: the result lands on the session's first request */
  if :: rsess[1] == rsess[r] -> resultOf[1] = r
     :: else -> resultOf[r] = r
  fi
#else
  resultOf[r] = r
#endif
}

/* The outcome o is decided and the result record (outcome o, exit status,
 * output) is written at once to the result path of request ID r: the
 * coordinator does both in one event-loop callback. */
inline Finish(r, o) {
  rst[r] = R_DELIVERED; approver[r] = 0; rapp[r] = 0;
  promptOn[r] = 0; hc[r] = 0; xcmd[r] = 0;
  DeliverResult(r)
}

inline KillAll() {
  for (k : 1 .. NS) {
    if :: Live(k) -> ss[k] = S_ENDED :: else -> skip fi;
    att[k] = false
  };
  for (k : 1 .. NR) {
    if :: Active(rst[k]) -> rst[k] = R_DROPPED :: else -> skip fi;
    approver[k] = 0; rapp[k] = 0; promptOn[k] = 0; xcmd[k] = 0;
#ifndef MUTANT_NO_PDEATHSIG
    hc[k] = 0;
#endif
    skip
  };
  sapp[1] = 0; sapp[2] = 0;
  flood = 0;
  k = 0
}

/* ------------------------------------------------------------------ */
/* Domain lifecycle                                                    */
/* ------------------------------------------------------------------ */
inline AcquireLock(s) {
  ENV_ON && (ss[s] == S_IDLE && dphase != D_RUNNING &&
#ifndef MUTANT_NO_LOCK
   coord == 0 &&
#endif
   inst < MaxInst) ->
  ss[s] = S_LAUNCHING;
  inst = inst + 1;
  coord = inst;
  alive[inst] = true;
  trust = inst;
  if :: dphase == D_FAILED -> dphase = D_RECOVERING :: else -> dphase = D_STARTING fi;
  for (k : 1 .. NR) { rst[k] = R_NONE }; k = 0
}

inline MountAnchor() {
  (dphase == D_STARTING && Owner && !anc) ->
  anc = true
}

inline StartSidecar() {
  (dphase == D_STARTING && Owner && anc && sdc == 0) ->
  sdc = coord; policy = 0
}

inline InstallPolicy() {
  (dphase == D_STARTING && Owner && sdc == coord && policy == 0) ->
  policy = sdc
}

/* (environment) a readiness report of an earlier start; i < coord */
inline StaleReport(i) {
  ENV_ON && (dphase == D_STARTING && Owner && sdc == coord && policy == 0 &&
             i >= 1 && i < coord) ->
  policy = i
}

inline StartSandbox() {
  (dphase == D_STARTING && Owner && anc && sdc == coord &&
#ifndef MUTANT_NO_POLICY_WAIT
#ifndef MUTANT_NO_ATTACH_MAC
   policy == coord &&
#else
   policy != 0 &&
#endif
#endif
   sbx == 0) ->
  sbx = coord
}

inline Publish() {
  (dphase == D_STARTING && Owner && sbx == coord) ->
  dphase = D_RUNNING
}

/* t: the tty flag of its OPEN (the TLA+ existential choice) */
inline Join(s, t) {
  ENV_ON && ((ss[s] == S_IDLE || ss[s] == S_LAUNCHING) && dphase == D_RUNNING && Owner) ->
  ss[s] = S_LIVE; att[s] = true; sinst[s] = coord; tty[s] = t
}

inline Teardown() {
  (dphase == D_RUNNING && Owner && !Live(1) && !Live(2)
#ifdef MUTANT_NO_TEARDOWN
   && false
#endif
  ) ->
  dphase = D_STOPPING; trust = 0
}

inline DomainFail() {
  ENV_ON && ((dphase == D_STARTING || dphase == D_RUNNING) && Owner && failures < MaxFailures) ->
  failures = failures + 1;
  dphase = D_STOPPING;
  trust = 0;
  KillAll()
}

inline CoordCrash() {
  ENV_ON && (Owner && failures < MaxFailures) ->
  failures = failures + 1;
  alive[coord] = false;
  coord = 0;
  trust = 0;
  dphase = D_FAILED;
  KillAll()
}

inline StopSandbox() {
  ((dphase == D_STOPPING || dphase == D_RECOVERING) && Owner && sbx != 0) ->
  sbx = 0
}

inline StopSidecar() {
  ((dphase == D_STOPPING || dphase == D_RECOVERING) && Owner && sbx == 0 && sdc != 0) ->
  sdc = 0; policy = 0
}

inline UnmountAnchor() {
  ((dphase == D_STOPPING || dphase == D_RECOVERING) && Owner && sbx == 0 &&
#ifndef MUTANT_EARLY_UNMOUNT
   sdc == 0 &&
#endif
   anc) ->
  anc = false
}

inline RecoveryDone() {
  (dphase == D_RECOVERING && Owner && sbx == 0 && sdc == 0 && !anc) ->
  dphase = D_STARTING
}

inline TeardownDone() {
  (dphase == D_STOPPING && Owner && sbx == 0 && sdc == 0 && !anc) ->
  dphase = D_ABSENT;
  alive[coord] = false;
  coord = 0
}

/* ------------------------------------------------------------------ */
/* Client Sessions                                                     */
/* ------------------------------------------------------------------ */
inline DetachEffect(s) {
  att[s] = false;
  for (k : 1 .. NR) {
    if :: rst[k] == R_SHOWN && promptOn[k] == s -> rst[k] = R_WAITING; promptOn[k] = 0
       :: else -> skip
    fi
  };
  k = 0
}

inline Detach(s) {
  ENV_ON && (ss[s] == S_LIVE && att[s]) ->
  DetachEffect(s)
}

inline CliCrash(s) {
  ENV_ON && (ss[s] == S_LAUNCHING || (ss[s] == S_LIVE && att[s])) ->
  if :: ss[s] == S_LAUNCHING -> ss[s] = S_ENDED
     :: else -> DetachEffect(s)
  fi
}

inline Reattach(s) {
  ENV_ON && (ss[s] == S_LIVE && !att[s] && tty[s] && dphase == D_RUNNING && Owner &&
             reattaches < MaxReattach) ->
  att[s] = true; reattaches = reattaches + 1
}

inline SessionEnd(s) {
  ENV_ON && (ss[s] == S_LIVE) ->
  ss[s] = S_ENDED;
  att[s] = false;
  for (k : 1 .. NR) {
    if :: Active(rst[k]) && rsess[k] == s ->
          rst[k] = R_DROPPED; approver[k] = 0; rapp[k] = 0; promptOn[k] = 0;
#ifndef MUTANT_NO_KILL_ON_END
          hc[k] = 0;
#endif
          xcmd[k] = 0
       :: else -> skip
    fi
  };
#ifndef MUTANT_APPROVAL_KEPT
  sapp[s] = 0;
#endif
  if :: s == 1 -> flood = 0 :: else -> skip fi;
  k = 0
}

/* ------------------------------------------------------------------ */
/* Escalation                                                          */
/* ------------------------------------------------------------------ */
/* Creds(cs) membership of <<cc, ca>> and the argv choice, as in the TLA+ */
#define KnownAnchor(a) ((a) == 0 || \
                        (sinst[1] != 0 && (a) == AnchorOf(1, sinst[1])) || \
                        (sinst[2] != 0 && (a) == AnchorOf(2, sinst[2])))
#define BadCert(c) ((c) == OTHERDOM || (c) == CLIROLE || \
                    ((c) >= 1 && (c) + 1 <= sbx))
#define OwnAnchor(cs) (sinst[cs] != 0 -> AnchorOf(cs, sinst[cs]) : 0)
#define InCreds(cs, cc, ca) (((cc) == sbx && KnownAnchor(ca) && ((cs) == 1 || (ca) == AnchorOf(cs, sbx))) || \
                             (BadCert(cc) && (cs) == 1 && (ca) == OwnAnchor(cs)))
#define Plausible(cs, cc, ca) ((cc) == sbx && (ca) == AnchorOf(cs, sbx))
#define CmdOK(cs, cc, ca, cm) ((cm) == CMD_OTHER || \
                               (((cm) == CMD_RULE || (cm) == CMD_ALT) && Plausible(cs, cc, ca)))

inline WriteRequest(r, cs, cc, ca, cm) {
  ENV_ON && (sbx != 0 && !written[r] && InCreds(cs, cc, ca) && CmdOK(cs, cc, ca, cm) &&
   (r == AdversaryReq || Plausible(cs, cc, ca))) ->
  written[r] = true; mbox[r] = 1;
  rsess[r] = cs; rcert[r] = cc; ranc[r] = ca; rcmd[r] = cm
}

inline Duplicate(r) {
  ENV_ON && (r == AdversaryReq && sbx != 0 && written[r] && mbox[r] == 0 && rsess[r] != 0 &&
   replays < MaxReplays) ->
  mbox[r] = 1; replays = replays + 1
}

#ifdef MUTANT_NO_SINGLE_USE
#define Unseen(r) (true)
#else
#define Unseen(r) (rst[r] == R_NONE)
#endif

/* Pending requests (accepted, not terminal) of session x, of the Domain:
 * the tracked ones and session 1's counted ones (PendingN, AllPendingN in
 * the TLA+). A condition is 0 or 1 here; "c -> 1 : 0" cannot be used: "->"
 * is implication inside an ltl formula. */
#define PendOf(q, x) (Active(rst[q]) && rsess[q] == (x))
#define Pending(x) (PendOf(1, x) + PendOf(2, x) + ((x) == 1) * flood)
#define PendAll (Active(rst[1]) + Active(rst[2]) + flood)
#define FloodMax (ESC_MAX + 1)
#ifdef MUTANT_NO_BOUND
#define OverBoundS(x) (false)
#else
#define OverBoundS(x) (Pending(x) >= ESC_SESSION_MAX || PendAll + 1 > ESC_MAX)
#endif
#define OverBound(r) OverBoundS(rsess[r])
#ifdef MUTANT_APPROVAL_LEAK
/* any session's approval of this argv */
#define SessionApproved(r) (In(rcmd[r], sapp[1]) || In(rcmd[r], sapp[2]))
#elif defined(MUTANT_APPROVAL_ANY_ARGV)
/* any approval of this session, whatever its argv */
#define SessionApproved(r) (sapp[rsess[r]] != 0)
#else
#define SessionApproved(r) In(rcmd[r], sapp[rsess[r]])
#endif
#ifdef MUTANT_PROMPT_NO_TTY
#define NoTerminal(r) (false)
#else
#define NoTerminal(r) (!tty[rsess[r]])
#endif

/* (environment) session 1's sandbox posts one more request, counted only:
 * accepted unless over a bound (a denied one changes nothing kept here) */
inline FloodRequest() {
  ENV_ON && (dphase == D_RUNNING && Owner && sbx == coord && ss[1] == S_LIVE &&
             sinst[1] == coord && flood < FloodMax && !OverBoundS(1)) ->
  flood = flood + 1
}

/* After the identity checks, in the order of accept_request and
 * decided_without_human: bounds, rule, session approval, no terminal. */
inline Verify(r) {
  (dphase == D_RUNNING && Owner && mbox[r] == 1) ->
  mbox[r] = 0;
  if
  :: !Unseen(r) -> skip                      /* seen: copy discarded (single use) */
  :: else ->
     if
     :: !VerifyBound(r) ->                   /* rejected, file deleted */
        rst[r] = R_REJECTED; rsess[r] = 0; rcert[r] = 0; ranc[r] = 0; rcmd[r] = 0
     :: else ->
        if
        :: OverBound(r) -> Finish(r, O_DENIED)        /* too many pending */
        :: else ->
           if
           :: RuleMatch(rcmd[r]) ->                   /* a rule of the config */
              rst[r] = R_APPROVED; approver[r] = RULE; rapp[r] = rcmd[r]
           :: else ->
              if
              :: SessionApproved(r) ->                /* "approve-session" */
                 rst[r] = R_APPROVED; approver[r] = SESSION; rapp[r] = rcmd[r]
              :: else ->
                 if
                 :: NoTerminal(r) -> Finish(r, O_DENIED)   /* nobody to ask */
                 :: else ->
                    rst[r] = R_WAITING;               /* waits for the session */
#ifdef MUTANT_SANDBOX_RULE
                    /* adopts a rule the sandbox asked for (in its record) */
                    rules = rules | Bit(rcmd[r]);
#endif
                    skip
                 fi
              fi
           fi
        fi
     fi
  fi
}

#ifdef MUTANT_ROUTE_ANY
/* routes to the first attached session's CLI, whoever owns the request */
#define RouteTo(r) (att[1] -> 1 : 2)
#define Routable(r) (att[1] || att[2])
#else
#define RouteTo(r) (rsess[r])
#define Routable(r) (att[rsess[r]])
#endif

/* no prompt of session x is shown (one modal at a time per session) */
#ifdef MUTANT_NO_QUEUE
#define NoneShown(x) (true)
#else
#define NoneShown(x) (!(rst[1] == R_SHOWN && rsess[1] == (x)) && \
                      !(rst[2] == R_SHOWN && rsess[2] == (x)))
#endif

inline ShowPrompt(r) {
  (rst[r] == R_WAITING && dphase == D_RUNNING && Owner && Routable(r) &&
   NoneShown(rsess[r])) ->
  rst[r] = R_SHOWN; promptOn[r] = RouteTo(r)
}

#define Decider(s, r) (rst[r] == R_SHOWN && dphase == D_RUNNING && Owner && \
                       promptOn[r] == s && att[s])

inline Approve(s, r) {
  ENV_ON && Decider(s, r) ->
  rst[r] = R_APPROVED; approver[r] = s; rapp[r] = rcmd[r]; promptOn[r] = 0
}

inline Edit(s, r) {
  ENV_ON && Decider(s, r) ->
  rst[r] = R_APPROVED; approver[r] = s; rapp[r] = CMD_EDITED; promptOn[r] = 0
}

/* DECISION "approve-session": also every later request of the request's
 * session with the same argv, until that session ends */
inline ApproveSession(s, r) {
  ENV_ON && Decider(s, r) ->
  rst[r] = R_APPROVED; approver[r] = s; rapp[r] = rcmd[r]; promptOn[r] = 0;
  sapp[rsess[r]] = sapp[rsess[r]] | Bit(rcmd[r])
}

/* DECISION "save-rule": the argv becomes a rule of the Domain's config */
inline SaveRule(s, r) {
  ENV_ON && Decider(s, r) ->
  rst[r] = R_APPROVED; approver[r] = s; rapp[r] = rcmd[r]; promptOn[r] = 0;
  rules = rules | Bit(rcmd[r]); saved = saved | Bit(rcmd[r])
}

inline Deny(s, r) {
  ENV_ON && Decider(s, r) ->
  Finish(r, O_DENIED)
}

inline Execute(r) {
  ((rst[r] == R_APPROVED
#ifdef MUTANT_NO_APPROVAL
    || rst[r] == R_WAITING || rst[r] == R_SHOWN
#endif
   ) && dphase == D_RUNNING && Owner) ->
  rst[r] = R_RUNNING;
  hc[r] = coord;
#ifdef MUTANT_RUN_ORIGINAL
  xcmd[r] = rcmd[r];
#else
  xcmd[r] = rapp[r];
#endif
  ran[r] = ran[r] + 1
}

inline SpawnFail(r) {
  ENV_ON && (rst[r] == R_APPROVED && dphase == D_RUNNING && Owner) ->
  Finish(r, O_FAILED)
}

inline CommandExit(r) {
  ENV_ON && (rst[r] == R_RUNNING && dphase == D_RUNNING && Owner) ->
  Finish(r, O_COMPLETED)
}

inline Timeout(r) {
  ((rst[r] == R_WAITING || rst[r] == R_SHOWN || rst[r] == R_RUNNING) &&
   dphase == D_RUNNING && Owner
#ifdef MUTANT_NO_TIMEOUT
   && false
#endif
  ) ->
  Finish(r, O_TIMEDOUT)
}

inline Cancel(r) {
  ENV_ON && ((rst[r] == R_WAITING || rst[r] == R_SHOWN || rst[r] == R_APPROVED ||
    rst[r] == R_RUNNING) && dphase == D_RUNNING && Owner && sbx != 0) ->
  Finish(r, O_CANCELLED)
}


/* ------------------------------------------------------------------ */
/* Properties: same names as in Lazaret.tla                            */
/* ------------------------------------------------------------------ */
#define P_NoUnapprovedExecution(r) (hc[r] == 0 || approver[r] == rsess[r] || \
          (approver[r] == SESSION && In(rcmd[r], sapp[rsess[r]]) && xcmd[r] == rcmd[r]) || \
          (approver[r] == RULE && (In(rcmd[r], InitRules) || In(rcmd[r], saved)) && xcmd[r] == rcmd[r]))
#define P_EditedRunsAsEdited(r) (hc[r] == 0 || (xcmd[r] == rapp[r] && rapp[r] != 0))
#define P_ResultToRequester(r) (resultOf[r] == 0 || resultOf[r] == r)
#define P_PromptToOwner(r) (rst[r] != R_SHOWN || (promptOn[r] == rsess[r] && att[rsess[r]]))
#define P_NoUnboundRequestShownOrRun(r) ((rst[r] != R_SHOWN && hc[r] == 0) || Bound(r))
#define P_SingleUse(r) (ran[r] <= 1)
#define P_SingleOwner(i) (!alive[i] || coord == i)
#define P_NoOrphanHostCommand(r) (hc[r] == 0 || \
          (alive[hc[r]] && hc[r] == coord && dphase == D_RUNNING && \
           rsess[r] >= 1 && rsess[r] <= NS && ss[rsess[r]] == S_LIVE))
#define P_SessionApprovalR(r) (approver[r] != SESSION || \
          (rsess[r] >= 1 && rsess[r] <= NS && In(rcmd[r], sapp[rsess[r]]) && rapp[r] == rcmd[r]))
#define P_SessionApprovalS(s) (sapp[s] == 0 || ss[s] == S_LIVE)
#define P_SessionApprovalScoped (ForR(P_SessionApprovalR) && \
          P_SessionApprovalS(1) && P_SessionApprovalS(2))
#define P_NoTerminalNeverPrompts(r) (rst[r] != R_SHOWN || tty[rsess[r]])
#define OnePrompt(q, r) (!(rst[q] == R_SHOWN && rst[r] == R_SHOWN) || promptOn[q] != promptOn[r])
#define P_OnePromptPerSession OnePrompt(1, 2)
#define P_BoundedQueues (Pending(1) <= ESC_SESSION_MAX && Pending(2) <= ESC_SESSION_MAX && \
          PendAll <= ESC_MAX)
#define Resolved(r) (rst[r] == R_DELIVERED || rst[r] == R_DROPPED)
#define Idle (dphase == D_RUNNING && !Live(1) && !Live(2))

#define ForR(P) (P(1) && P(2))
/* Every variable is an unsigned byte: a range 0..hi is "<= hi" (Spin's
 * ltl parser takes at most about 2,000 characters of formula). */
#define Le(v, hi) ((v) <= (hi))
/* a set of argvs: bits of CMD_RULE .. CMD_ALT only */
#define ArgvSet(m) ((m) % 2 == 0 && (m) < Bit(CMD_ALT + 1))
#define TypeS(s) (Le(sinst[s], MaxInst) && ArgvSet(sapp[s]))
#define TypeR(r) (Le(mbox[r], 1) && Le(rsess[r], NS) && Le(rcert[r], CLIROLE) && \
                  Le(ranc[r], NS * MaxInst) && Le(rcmd[r], CMD_ALT) && \
                  Le(approver[r], SESSION) && Le(rapp[r], CMD_EDITED) && \
                  Le(promptOn[r], NS) && Le(hc[r], MaxInst) && \
                  Le(xcmd[r], CMD_EDITED) && Le(ran[r], 2) && Le(resultOf[r], NR))
#define TypeOK_P (Le(coord, MaxInst) && Le(inst, MaxInst) && Le(trust, MaxInst) && \
          Le(failures, MaxFailures) && Le(sdc, MaxInst) && Le(sbx, MaxInst) && \
          Le(policy, MaxInst) && \
          Le(replays, MaxReplays) && Le(reattaches, MaxReattach) && \
          ArgvSet(rules) && ArgvSet(saved) && Le(flood, FloodMax) && \
          TypeS(1) && TypeS(2) && ForR(TypeR))
#define P_SandboxOnlyAfterPolicy (sbx == 0 || (sdc == sbx && policy == sbx))
#define P_RecoveryOrder ((sbx == 0 || sdc != 0) && (sdc == 0 || anc) && \
          (dphase != D_ABSENT || (sbx == 0 && sdc == 0 && !anc)))

inline CheckInvariants() {
  assert(TypeOK_P);
  assert(ForR(P_NoUnapprovedExecution));
  assert(ForR(P_EditedRunsAsEdited));
  assert(ForR(P_ResultToRequester));
  assert(ForR(P_PromptToOwner));
  assert(ForR(P_NoUnboundRequestShownOrRun));
  assert(ForR(P_SingleUse));
  assert(P_SingleOwner(1) && P_SingleOwner(2));
  assert(P_SandboxOnlyAfterPolicy);
  assert(P_RecoveryOrder);
  assert(ForR(P_NoOrphanHostCommand));
  assert(P_SessionApprovalScoped);
  assert(ForR(P_NoTerminalNeverPrompts));
  assert(P_OnePromptPerSession);
  assert(P_BoundedQueues)
}

/* With -DASSERT_INVARIANTS a monitor process checks every safety property
 * in every reachable state: its one step is enabled only in a state that
 * violates one, and then asserts each in turn (the failed assertion names
 * the property). It never moves otherwise, so the stored states are those
 * of the model alone (one exhaustive run checks them all). Without it the
 * same properties are checked as ltl claims. */
#define AllInvariants (TypeOK_P && ForR(P_NoUnapprovedExecution) && \
          ForR(P_EditedRunsAsEdited) && ForR(P_ResultToRequester) && \
          ForR(P_PromptToOwner) && ForR(P_NoUnboundRequestShownOrRun) && \
          ForR(P_SingleUse) && P_SingleOwner(1) && P_SingleOwner(2) && \
          P_SandboxOnlyAfterPolicy && P_RecoveryOrder && ForR(P_NoOrphanHostCommand) && \
          P_SessionApprovalScoped && ForR(P_NoTerminalNeverPrompts) && \
          P_OnePromptPerSession && P_BoundedQueues)
#ifdef ASSERT_INVARIANTS
active proctype Invariants()
{
end:
  atomic { !AllInvariants -> CheckInvariants() }
}
#endif

/* ------------------------------------------------------------------ */
/* Next: every action for every parameter value                        */
/* ------------------------------------------------------------------ */
#define S1(A)    :: d_step { A(1) } :: d_step { A(2) }
#define R1(A)    :: d_step { A(1) } :: d_step { A(2) }
#define SR(A)    :: d_step { A(1, 1) } :: d_step { A(1, 2) } \
                 :: d_step { A(2, 1) } :: d_step { A(2, 2) }
/* Join(s, t): t in BOOLEAN */
#define ST(A)    :: d_step { A(1, false) } :: d_step { A(1, true) } \
                 :: d_step { A(2, false) } :: d_step { A(2, true) }
/* WriteRequest(r, cs, cc, ca, cm): the values that can satisfy Creds(cs)
 * and the argv rule. A plausible record (own certificate, the claimed
 * session's current anchor) for any r, any session, any argv; any other
 * (certificate cc in 1..CLIROLE, anchor ca in 0..NS*MaxInst; FORGED never
 * is in Creds) only for AdversaryReq, claiming session 1, asking CMD_OTHER.
 * The guard of WriteRequest is the whole membership test. */
#define W_PM(r, cs, cm) :: d_step { WriteRequest(r, cs, sbx, AnchorOf(cs, sbx), cm) }
#define W_P(r, cs) W_PM(r, cs, CMD_RULE) W_PM(r, cs, CMD_OTHER) W_PM(r, cs, CMD_ALT)
#define W_A(cc) :: d_step { WriteRequest(AdversaryReq, 1, cc, 0, CMD_OTHER) } \
                :: d_step { WriteRequest(AdversaryReq, 1, cc, 1, CMD_OTHER) } \
                :: d_step { WriteRequest(AdversaryReq, 1, cc, 2, CMD_OTHER) } \
                :: d_step { WriteRequest(AdversaryReq, 1, cc, 3, CMD_OTHER) } \
                :: d_step { WriteRequest(AdversaryReq, 1, cc, 4, CMD_OTHER) }
#define W_R(r) W_P(r, 1) W_P(r, 2)

active proctype Lazaret()
{
end:
  do
  S1(AcquireLock)
  ST(Join)
  S1(Detach)
  S1(CliCrash)
  S1(Reattach)
  S1(SessionEnd)
#ifndef NO_ENV_STOP
  :: d_step { ENV_ON -> envStopped = true }
#endif
  :: d_step { MountAnchor() }
  :: d_step { StartSidecar() }
  :: d_step { InstallPolicy() }
  S1(StaleReport)
  :: d_step { StartSandbox() }
  :: d_step { Publish() }
  :: d_step { Teardown() }
  :: d_step { DomainFail() }
  :: d_step { CoordCrash() }
  :: d_step { StopSandbox() }
  :: d_step { StopSidecar() }
  :: d_step { UnmountAnchor() }
  :: d_step { RecoveryDone() }
  :: d_step { TeardownDone() }
  W_R(1)
  W_R(2)
  W_A(1) W_A(2) W_A(3) W_A(4)
  R1(Duplicate)
  :: d_step { FloodRequest() }
  R1(Verify)
  R1(ShowPrompt)
  R1(Execute)
  R1(SpawnFail)
  R1(CommandExit)
  R1(Timeout)
  R1(Cancel)
  SR(Approve)
  SR(Edit)
  SR(ApproveSession)
  SR(SaveRule)
  SR(Deny)
  od
}

ltl TypeOK { [] TypeOK_P }
ltl NoUnapprovedExecution { [] ForR(P_NoUnapprovedExecution) }
ltl EditedRunsAsEdited { [] ForR(P_EditedRunsAsEdited) }
ltl ResultToRequester { [] ForR(P_ResultToRequester) }
ltl PromptToOwner { [] ForR(P_PromptToOwner) }
ltl NoUnboundRequestShownOrRun { [] ForR(P_NoUnboundRequestShownOrRun) }
ltl SingleUse { [] ForR(P_SingleUse) }
ltl SingleOwner { [] (P_SingleOwner(1) && P_SingleOwner(2)) }
ltl SandboxOnlyAfterPolicy { [] P_SandboxOnlyAfterPolicy }
ltl RecoveryOrder { [] P_RecoveryOrder }
ltl NoOrphanHostCommand { [] ForR(P_NoOrphanHostCommand) }
ltl SessionApprovalScoped { [] P_SessionApprovalScoped }
ltl NoTerminalNeverPrompts { [] ForR(P_NoTerminalNeverPrompts) }
ltl OnePromptPerSession { [] P_OnePromptPerSession }
ltl BoundedQueues { [] P_BoundedQueues }
#define Resolves(r) (Active(rst[r]) -> <> Resolved(r))
ltl EveryRequestResolves { [] ForR(Resolves) }
ltl IdleDomainTornDown { [] (Idle -> <> (dphase == D_ABSENT || dphase == D_FAILED ||
                                            ss[1] == S_LIVE || ss[2] == S_LIVE)) }
