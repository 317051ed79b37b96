------------------------------- MODULE Lazaret -------------------------------
(***************************************************************************)
(* Lazaret application protocol model (normative; spec section 3.2, 3.6).  *)
(*                                                                         *)
(* One Domain, its Session Coordinator instances, its Client Sessions, the *)
(* untrusted Agent Sandbox writing Escalation Mailbox records, and the     *)
(* host commands run on the developer's behalf.                            *)
(*                                                                         *)
(* Terms are those of docs/DESIGN "Terms as this project uses them":       *)
(*  - a Client Session is a Session ID + Session Anchor + its command; it  *)
(*    ENDS when its command ends or it is killed (that is the "disconnect" *)
(*    of spec 3.6 / OR-2 and the "leaving" of FR-6);                       *)
(*  - a Client CLI ID names ONE attachment of a CLI to a session; detach   *)
(*    unbinds it, reattach binds a NEW one; a detached session runs on.    *)
(*                                                                         *)
(* protocol/Lazaret.pml mirrors this module exactly: same variables, same  *)
(* action names (one Promela inline per action), same property names.     *)
(* tests/model/check-model.sh fails if a name defined here is missing from *)
(* the mirror or from the mapping table in protocol/README.md.             *)
(*                                                                         *)
(* Encoding: everything is a small integer or a string so that the Promela *)
(* mirror can hold the same values in bytes/mtypes:                        *)
(*  - coordinator instances are 1..MaxInst; an instance number is at once  *)
(*    its Session Coordinator ID, the ID of its ephemeral Trust Anchor,    *)
(*    and the Network Sidecar ID / Agent Sandbox ID of the sidecar and     *)
(*    sandbox it starts (one of each per instance). 0 means "none".        *)
(*  - a certificate presented in a mailbox record is an instance number i  *)
(*    ("Agent Sandbox role, this profile, this Domain, Sandbox ID i,       *)
(*    issued by Trust Anchor i") or one of FORGED / OTHERDOM / CLIROLE,    *)
(*    each differing from a valid one in exactly one bound field.          *)
(*  - a Session Anchor is AnchorOf(s, i): the anchor issued to session s   *)
(*    when it registered with instance i; 0 is a MAC made without any key. *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    NS,           \* number of Client Sessions (Session IDs 1..NS)
    NR,           \* number of Escalation Request IDs (1..NR)
    MaxFailures,  \* coordinator crashes + detected Domain failures allowed
    MaxReattach,  \* reattaches (each binds a new Client CLI ID), over all sessions
    MaxReplays,   \* extra copies (duplicates/replays) the sandbox may write
    ESC_SESSION_MAX, \* requests of one session waiting or running at once
    ESC_MAX       \* requests of the Domain waiting or running at once
                  \* (src/coordinator-escalate.c: 32 and 256; past them, denied)

ASSUME NS \in Nat /\ NS >= 1 /\ NR \in Nat /\ NR >= 1
ASSUME MaxFailures \in Nat /\ MaxReattach \in Nat
ASSUME MaxReplays \in Nat
ASSUME ESC_SESSION_MAX \in Nat /\ ESC_MAX \in Nat

Sess    == 1..NS
Req     == 1..NR
\* Every instance is created by a launching session taking the lifecycle
\* lock, and a session leads at most once (it joins or ends before the lock
\* is free again), so NS instances suffice; the bound only limits mutants.
MaxInst == NS
Inst    == 1..MaxInst

\* Certificates a record may carry (see header).
FORGED   == 0              \* no valid certificate (initial / cleared value)
OTHERDOM == MaxInst + 1    \* Agent Sandbox certificate of ANOTHER Domain (SR-11); it
                           \* also stands for one signed by no Trust Anchor at all
                           \* (forged): the same check rejects both
CLIROLE  == MaxInst + 2    \* certificate of this Domain and instance, role Client CLI
\* Session Anchors.
AnchorOf(s, i) == (i - 1) * NS + s
\* Commands (argv) a record may ask for; an edit yields CMD_EDITED. Rules
\* and session approvals match the exact argv (SR-8): equal values.
CMD_RULE   == 1            \* matches an auto-approval rule of the initial config
CMD_OTHER  == 2            \* matches no initial rule
CMD_ALT    == 3            \* another argv matching no initial rule
CMD_EDITED == 4            \* the argv as edited by the developer
Asked      == {CMD_RULE, CMD_OTHER, CMD_ALT}
\* The auto-approval rules of the trusted host config the Domain loaded.
InitRules  == {CMD_RULE}
\* approver values besides a session s (that session's attached CLI, a
\* human, decided): auto-approved by a rule; by a session approval.
RULE    == NS + 1
SESSION == NS + 2
\* Counted requests of session 1 at most (only a mutant without the
\* bounds reaches it: it keeps that mutant's state space finite).
FloodMax == ESC_MAX + 1
\* The request ID the adversary writes with ANY material it holds, and the
\* one it replays. The other IDs are written in the honest format (own
\* certificate and the claimed session's anchor; any session, any argv).
\* One adversarial record exercises every rejection path; the others give
\* concurrency and cross-session routing (small-scope bound, see README).
AdversaryReq == 1

DPhases  == {"absent", "starting", "running", "stopping", "recovering", "failed"}
SStates  == {"idle", "launching", "live", "ended"}
RStates  == {"none", "rejected", "waiting", "shown", "approved", "running",
             "delivered", "dropped"}
\* accepted and not yet terminal (OR-2)
Active   == {"waiting", "shown", "approved", "running"}
\* Outcomes of a result record (protocol/wire.md); every terminal action
\* names the outcome it delivers.
Outcomes == {"completed", "denied", "timedout", "cancelled", "failed"}

VARIABLES
    \* ---- Domain lifecycle (spec 3.2) ----
    dphase,    \* Domain phase, see DPhases
    coord,     \* instance holding the lifecycle lock = owning the Domain (0: lock free)
    inst,      \* last instance number allocated
    alive,     \* alive[i]: coordinator process of instance i is running
    trust,     \* instance whose Trust Anchor currently authenticates peers (0: none)
    failures,  \* crashes + detected failures so far
    anc,       \* State Anchor overlay mounted
    sdc,       \* Network Sidecar running: its Sidecar ID (instance), 0 if stopped
    policy,    \* the instance whose sidecar's readiness report the coordinator
               \* holds (0: none). The report carries an HMAC with that start's
               \* attachment key over the policy digest and (Domain, Sidecar ID,
               \* Sandbox ID): only this instance's sidecar can make a report
               \* of this instance, and only once its policy is installed.
    sbx,       \* Agent Sandbox running: its Sandbox ID (instance), 0 if stopped
    \* ---- Client Sessions ----
    ss,        \* ss[s] \in SStates
    att,       \* att[s]: a Client CLI is attached to s. Its Client CLI ID is bound
               \* to s by Join / Reattach and unbound by Detach / CliCrash; a
               \* reattach binds a NEW one. No ID values are needed: a decision is
               \* accepted only from the CLI attached now, and a detach withdraws
               \* every prompt addressed to the old one.
    sinst,     \* sinst[s]: instance s registered with (its anchor: AnchorOf(s, sinst[s]))
    reattaches, \* reattaches so far, over all sessions
    tty,       \* tty[s]: session s runs on a terminal (OPEN's tty flag, fixed at
               \* Join); one without (`lazaret run` from a script) cannot be
               \* asked anything and cannot be reattached
    \* ---- Escalation Mailbox: record files written by the UNTRUSTED sandbox ----
    written,   \* written[r]: a record with request ID r exists
    mbox,      \* mbox[r]: an unread copy of record r is in the mailbox (0 or 1)
    replays,   \* duplicates/replays written so far
    rsess,     \* rsess[r]: Session ID the record claims
    rcert,     \* rcert[r]: certificate the record is signed with
    ranc,      \* ranc[r]: Session Anchor the record's MAC is made with
    rcmd,      \* rcmd[r]: argv requested
    \* ---- Coordinator view of each request (in memory: lost with the instance) ----
    rst,       \* rst[r] \in RStates
    approver,  \* approver[r]: session whose attached CLI approved, RULE, or 0
    rapp,      \* rapp[r]: the argv that approval authorises
    promptOn,  \* promptOn[r]: session whose attached CLI shows the prompt (0: none)
    hc,        \* hc[r]: instance running r's host command (0: not running)
    xcmd,      \* xcmd[r]: argv of the running host command
    ran,       \* ran[r]: times a host command ran for request ID r (history)
    resultOf,  \* resultOf[r]: request whose result was delivered to r's requester (history)
    \* ---- Approvals that need no prompt ----
    sapp,      \* sapp[s]: argvs approved for the rest of session s ("approve-session");
               \* coordinator memory, gone with the session or the instance
    rules,     \* argvs of the auto-approval rules of the Domain's trusted config:
               \* persistent (a file on the host), only ever extended by "save-rule"
    saved,     \* argvs a human decision ("save-rule") made rules (history)
    \* ---- Session 1's further requests: counted, not tracked ----
    flood      \* how many of them are pending (accepted, not terminal)

lifeVars == <<dphase, coord, inst, alive, trust, failures, anc, sdc, policy, sbx>>
sessVars == <<ss, att, sinst, reattaches, tty>>
mboxVars == <<written, mbox, replays, rsess, rcert, ranc, rcmd>>
reqVars  == <<rst, approver, rapp, promptOn, hc, xcmd, ran, resultOf>>
apprVars == <<sapp, rules, saved, flood>>
vars     == <<lifeVars, sessVars, mboxVars, reqVars, apprVars>>

\* SR-8: a rule matches the exact argv.
RuleMatch(c) == c \in rules
\* Requests of session s (of the Domain) accepted and not yet terminal:
\* the tracked ones, and how many there are with the counted ones.
Pending(s) == {r \in Req : rst[r] \in Active /\ rsess[r] = s}
AllPending == {r \in Req : rst[r] \in Active}
PendingN(s) == Cardinality(Pending(s)) + (IF s = 1 THEN flood ELSE 0)
AllPendingN == Cardinality(AllPending) + flood

TypeOK ==
    /\ dphase \in DPhases
    /\ coord \in 0..MaxInst /\ inst \in 0..MaxInst /\ trust \in 0..MaxInst
    /\ alive \in [Inst -> BOOLEAN] /\ failures \in 0..MaxFailures
    /\ anc \in BOOLEAN /\ sdc \in 0..MaxInst /\ policy \in 0..MaxInst /\ sbx \in 0..MaxInst
    /\ ss \in [Sess -> SStates] /\ att \in [Sess -> BOOLEAN]
    /\ sinst \in [Sess -> 0..MaxInst] /\ reattaches \in 0..MaxReattach
    /\ tty \in [Sess -> BOOLEAN]
    /\ written \in [Req -> BOOLEAN] /\ mbox \in [Req -> 0..1]
    /\ replays \in 0..MaxReplays
    /\ rsess \in [Req -> 0..NS] /\ rcert \in [Req -> 0..CLIROLE]
    /\ ranc \in [Req -> 0..(NS * MaxInst)] /\ rcmd \in [Req -> 0..CMD_ALT]
    /\ rst \in [Req -> RStates] /\ approver \in [Req -> 0..SESSION]
    /\ rapp \in [Req -> 0..CMD_EDITED] /\ promptOn \in [Req -> 0..NS]
    /\ hc \in [Req -> 0..MaxInst] /\ xcmd \in [Req -> 0..CMD_EDITED]
    /\ ran \in [Req -> 0..2] /\ resultOf \in [Req -> 0..NR]
    /\ sapp \in [Sess -> SUBSET Asked] /\ rules \subseteq Asked /\ saved \subseteq Asked
    /\ flood \in 0..FloodMax

Init ==
    /\ dphase = "absent" /\ coord = 0 /\ inst = 0 /\ alive = [i \in Inst |-> FALSE]
    /\ trust = 0 /\ failures = 0
    /\ anc = FALSE /\ sdc = 0 /\ policy = 0 /\ sbx = 0
    /\ ss = [s \in Sess |-> "idle"] /\ att = [s \in Sess |-> FALSE]
    /\ sinst = [s \in Sess |-> 0] /\ reattaches = 0
    /\ tty = [s \in Sess |-> FALSE]
    /\ written = [r \in Req |-> FALSE] /\ mbox = [r \in Req |-> 0] /\ replays = 0
    /\ rsess = [r \in Req |-> 0] /\ rcert = [r \in Req |-> FORGED]
    /\ ranc = [r \in Req |-> 0] /\ rcmd = [r \in Req |-> 0]
    /\ rst = [r \in Req |-> "none"] /\ approver = [r \in Req |-> 0]
    /\ rapp = [r \in Req |-> 0] /\ promptOn = [r \in Req |-> 0]
    /\ hc = [r \in Req |-> 0] /\ xcmd = [r \in Req |-> 0]
    /\ ran = [r \in Req |-> 0] /\ resultOf = [r \in Req |-> 0]
    /\ sapp = [s \in Sess |-> {}] /\ rules = InitRules /\ saved = {}
    /\ flood = 0

(***************************************************************************)
(* Helpers                                                                 *)
(***************************************************************************)
\* The current owner is a live coordinator (in the correct model alive[coord]
\* holds whenever coord # 0; written out so mutants cannot hide behind it).
Owner == coord # 0 /\ alive[coord]

\* SR-9, FR-10: the record is bound to the CURRENT identity tuple: its
\* certificate chains to the current Trust Anchor, has the Agent Sandbox role,
\* this Domain, and the Sandbox ID of the running sandbox; the session it
\* claims is live and registered with this coordinator instance; and its
\* MAC is made with that session's current Session Anchor.
Bound(r) ==
    /\ trust # 0 /\ trust = coord
    /\ rcert[r] = trust /\ sbx = trust
    /\ rsess[r] \in Sess
    /\ ss[rsess[r]] = "live" /\ sinst[rsess[r]] = coord
    /\ ranc[r] = AnchorOf(rsess[r], coord)

\* FR-5: the result record goes to the result path of request ID r, which
\* only r's Escalation Client polls.
DeliverResult(r) ==
    resultOf' = [resultOf EXCEPT ![r] = r]

\* Request r ends with outcome o: the host command, if any, is no longer
\* running, its authorisation state is cleared, and the result record
\* (outcome, exit status, output) is delivered at once: the coordinator
\* decides and writes it (atomic rename) in one event-loop callback, while
\* the session is live (else the request was dropped). r is now terminal.
Finish(r, o) ==
    /\ o \in Outcomes
    /\ rst' = [rst EXCEPT ![r] = "delivered"]
    /\ DeliverResult(r)
    /\ approver' = [approver EXCEPT ![r] = 0]
    /\ rapp' = [rapp EXCEPT ![r] = 0]
    /\ promptOn' = [promptOn EXCEPT ![r] = 0]
    /\ hc' = [hc EXCEPT ![r] = 0]
    /\ xcmd' = [xcmd EXCEPT ![r] = 0]

\* Sessions killed by a coordinator crash or a Domain failure: every live or
\* launching session ends, every accepted request is dropped (its session
\* disconnected, OR-2), and every host command is terminated (OR-3). The
\* sessions' approvals go with them (lz_coord_esc_session_gone); rules stay:
\* they are in the config file.
KillAll ==
    /\ ss' = [s \in Sess |-> IF ss[s] \in {"launching", "live"} THEN "ended" ELSE ss[s]]
    /\ att' = [s \in Sess |-> FALSE]
    /\ rst' = [r \in Req |-> IF rst[r] \in Active THEN "dropped" ELSE rst[r]]
    /\ approver' = [r \in Req |-> 0] /\ rapp' = [r \in Req |-> 0]
    /\ promptOn' = [r \in Req |-> 0] /\ xcmd' = [r \in Req |-> 0]
    /\ hc' = [r \in Req |-> 0]
    /\ sapp' = [s \in Sess |-> {}] /\ flood' = 0

(***************************************************************************)
(* Domain lifecycle (spec 3.2; SR-5, OR-1, FR-6, FR-7)                     *)
(***************************************************************************)

\* OR-1: a developer runs `lazaret` for a new session s ("idle" covers both
\* "not run yet" and "blocked on the lock"). Its CLI finds no published
\* coordinator and takes the Domain's lifecycle lock (flock on the runtime
\* dir; the kernel releases it when the holder dies). It becomes the startup
\* leader and re-executes itself as coordinator instance inst+1 with a NEW
\* ephemeral Trust Anchor. The new instance knows nothing of earlier requests
\* (its seen-set is empty). If a predecessor failed, stale resources may
\* exist: it recovers them first (FR-7).
AcquireLock(s) ==
    /\ ss[s] = "idle"
    /\ dphase # "running"
    /\ coord = 0                      \* the lifecycle lock is free
    /\ inst < MaxInst
    /\ ss' = [ss EXCEPT ![s] = "launching"]
    /\ inst' = inst + 1
    /\ coord' = inst + 1
    /\ alive' = [alive EXCEPT ![inst + 1] = TRUE]
    /\ trust' = inst + 1
    /\ dphase' = IF dphase = "failed" THEN "recovering" ELSE "starting"
    /\ rst' = [r \in Req |-> "none"]
    /\ UNCHANGED <<failures, anc, sdc, policy, sbx, att, sinst, reattaches, tty, mboxVars,
                   approver, rapp, promptOn, hc, xcmd, ran, resultOf, apprVars>>

\* Startup, strictly in order: State Anchor, sidecar, policy, sandbox (SR-5).
MountAnchor ==
    /\ dphase = "starting" /\ Owner
    /\ ~anc
    /\ anc' = TRUE
    /\ UNCHANGED <<dphase, coord, inst, alive, trust, failures, sdc, policy, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

StartSidecar ==
    /\ dphase = "starting" /\ Owner
    /\ anc /\ sdc = 0
    /\ sdc' = coord /\ policy' = 0
    /\ UNCHANGED <<dphase, coord, inst, alive, trust, failures, anc, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

\* The sidecar (alone holding NET_ADMIN) installs the policy and reports
\* ready, with this start's attachment MAC.
InstallPolicy ==
    /\ dphase = "starting" /\ Owner
    /\ sdc = coord /\ policy = 0
    /\ policy' = sdc
    /\ UNCHANGED <<dphase, coord, inst, alive, trust, failures, anc, sdc, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

\* (environment) A readiness report that is not this start's appears
\* before this sidecar's own: one an earlier start's sidecar made (a log
\* line left over, a replay), with that start's key.
StaleReport ==
    /\ dphase = "starting" /\ Owner
    /\ sdc = coord /\ policy = 0
    /\ \E i \in 1..(coord - 1) : policy' = i
    /\ UNCHANGED <<dphase, coord, inst, alive, trust, failures, anc, sdc, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

\* SR-5: the sandbox starts only in the netns of THIS instance's sidecar
\* (network attachment tuple (Domain, Sidecar ID, Sandbox ID): the report's
\* MAC is checked), after the policy is installed. Its certificate carries
\* Sandbox ID = coord.
StartSandbox ==
    /\ dphase = "starting" /\ Owner
    /\ anc /\ sdc = coord /\ policy = coord /\ sbx = 0
    /\ sbx' = coord
    /\ UNCHANGED <<dphase, coord, inst, alive, trust, failures, anc, sdc, policy,
                   sessVars, mboxVars, reqVars, apprVars>>

\* The control socket is published: CLIs may now join.
Publish ==
    /\ dphase = "starting" /\ Owner
    /\ sbx = coord
    /\ dphase' = "running"
    /\ UNCHANGED <<coord, inst, alive, trust, failures, anc, sdc, policy, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

\* FR-2, FR-10: a CLI (the startup leader, or any other) connects to the
\* published coordinator (version check first, wire.md) and registers its
\* session: Session ID s, a new Client CLI ID and a Session Anchor
\* AnchorOf(s, coord), bound together by this instance. Its OPEN says
\* whether it runs on a terminal (any CLI may be started from a script).
Join(s) ==
    /\ ss[s] \in {"idle", "launching"}
    /\ dphase = "running" /\ Owner
    /\ ss' = [ss EXCEPT ![s] = "live"]
    /\ att' = [att EXCEPT ![s] = TRUE]
    /\ sinst' = [sinst EXCEPT ![s] = coord]
    /\ \E t \in BOOLEAN : tty' = [tty EXCEPT ![s] = t]
    /\ UNCHANGED <<lifeVars, reattaches, mboxVars, reqVars, apprVars>>

\* FR-6: the last Client Session has ended (none live, none connecting):
\* withdraw publication, drop the Trust Anchor, stop resources in order.
Teardown ==
    /\ dphase = "running" /\ Owner
    /\ \A s \in Sess : ss[s] \notin {"launching", "live"}
    /\ dphase' = "stopping"
    /\ trust' = 0
    /\ UNCHANGED <<coord, inst, alive, failures, anc, sdc, policy, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

\* Spec 3.2: a detected Domain failure (sidecar died, sandbox died, ...)
\* withdraws publication, invalidates the trust material, disconnects every
\* session and terminates host processes; it does NOT assume resources are
\* gone: the owner then stops them in recovery order.
DomainFail ==
    /\ dphase \in {"starting", "running"} /\ Owner
    /\ failures < MaxFailures
    /\ failures' = failures + 1
    /\ dphase' = "stopping"
    /\ trust' = 0
    /\ KillAll
    /\ UNCHANGED <<coord, inst, alive, anc, sdc, policy, sbx,
                   sinst, reattaches, tty, mboxVars, ran, resultOf, rules, saved>>

\* The coordinator process dies at any step (SIGKILL, OOM). The kernel
\* releases the lifecycle lock and closes its ptys (sessions end, CLIs see
\* EOF); host commands die with it (PR_SET_PDEATHSIG + own process group,
\* OR-3); its Trust Anchor key existed only in its memory. Sidecar, sandbox
\* and mounts SURVIVE (FR-7): the Domain is "failed" until a new leader
\* recovers it.
CoordCrash ==
    /\ Owner
    /\ failures < MaxFailures
    /\ failures' = failures + 1
    /\ alive' = [alive EXCEPT ![coord] = FALSE]
    /\ coord' = 0
    /\ trust' = 0
    /\ dphase' = "failed"
    /\ KillAll
    /\ UNCHANGED <<inst, anc, sdc, policy, sbx, sinst, reattaches, tty, mboxVars, ran, resultOf,
                   rules, saved>>

\* FR-7 recovery / FR-6 teardown, strictly: sandbox, sidecar, State Anchor.
StopSandbox ==
    /\ dphase \in {"stopping", "recovering"} /\ Owner
    /\ sbx # 0
    /\ sbx' = 0
    /\ UNCHANGED <<dphase, coord, inst, alive, trust, failures, anc, sdc, policy,
                   sessVars, mboxVars, reqVars, apprVars>>

StopSidecar ==
    /\ dphase \in {"stopping", "recovering"} /\ Owner
    /\ sbx = 0 /\ sdc # 0
    /\ sdc' = 0 /\ policy' = 0
    /\ UNCHANGED <<dphase, coord, inst, alive, trust, failures, anc, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

UnmountAnchor ==
    /\ dphase \in {"stopping", "recovering"} /\ Owner
    /\ sbx = 0 /\ sdc = 0 /\ anc
    /\ anc' = FALSE
    /\ UNCHANGED <<dphase, coord, inst, alive, trust, failures, sdc, policy, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

\* A new leader finished recovering stale resources: the Domain is back to
\* its absent resource state and this leader now starts it.
RecoveryDone ==
    /\ dphase = "recovering" /\ Owner
    /\ sbx = 0 /\ sdc = 0 /\ ~anc
    /\ dphase' = "starting"
    /\ UNCHANGED <<coord, inst, alive, trust, failures, anc, sdc, policy, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

\* Teardown or failure handling complete: the coordinator exits and the
\* lifecycle lock is released; the Domain is absent.
TeardownDone ==
    /\ dphase = "stopping" /\ Owner
    /\ sbx = 0 /\ sdc = 0 /\ ~anc
    /\ dphase' = "absent"
    /\ alive' = [alive EXCEPT ![coord] = FALSE]
    /\ coord' = 0
    /\ UNCHANGED <<inst, trust, failures, anc, sdc, policy, sbx,
                   sessVars, mboxVars, reqVars, apprVars>>

(***************************************************************************)
(* Client Sessions: attach, detach, reattach, end, CLI crash (FR-10)       *)
(***************************************************************************)

\* Orderly detach: the Client CLI ID is unbound; the session runs on. A
\* prompt shown on that CLI is withdrawn and waits for a reattach.
Detach(s) ==
    /\ ss[s] = "live" /\ att[s]
    /\ att' = [att EXCEPT ![s] = FALSE]
    /\ rst' = [r \in Req |-> IF rst[r] = "shown" /\ promptOn[r] = s THEN "waiting" ELSE rst[r]]
    /\ promptOn' = [r \in Req |-> IF rst[r] = "shown" /\ promptOn[r] = s THEN 0 ELSE promptOn[r]]
    /\ UNCHANGED <<lifeVars, ss, sinst, reattaches, tty, mboxVars,
                   approver, rapp, hc, xcmd, ran, resultOf, apprVars>>

\* The CLI process dies. Attached: the coordinator sees EOF, same as Detach.
\* Still launching (leader not yet registered): that session never exists.
CliCrash(s) ==
    \/ /\ ss[s] = "launching"
       /\ ss' = [ss EXCEPT ![s] = "ended"]
       /\ UNCHANGED <<lifeVars, att, sinst, reattaches, tty, mboxVars, reqVars, apprVars>>
    \/ Detach(s)

\* A new CLI attaches to the running, detached session: a NEW Client CLI ID.
\* A session without a terminal has no screen to attach to (lz_reg_attach
\* refuses it; its detach hangs its command up).
Reattach(s) ==
    /\ ss[s] = "live" /\ ~att[s] /\ tty[s]
    /\ dphase = "running" /\ Owner
    /\ reattaches < MaxReattach
    /\ att' = [att EXCEPT ![s] = TRUE]
    /\ reattaches' = reattaches + 1
    /\ UNCHANGED <<lifeVars, ss, sinst, tty, mboxVars, reqVars, apprVars>>

\* The session's command exits or is killed: the session ends (it
\* "disconnects" in the sense of spec 3.6 and OR-2). Its pending requests
\* are dropped and its host commands are terminated (OR-3). Its session
\* approvals end with it (lz_coord_esc_session_gone).
SessionEnd(s) ==
    /\ ss[s] = "live"
    /\ ss' = [ss EXCEPT ![s] = "ended"]
    /\ att' = [att EXCEPT ![s] = FALSE]
    /\ LET mine(r) == rst[r] \in Active /\ rsess[r] = s IN
       /\ rst' = [r \in Req |-> IF mine(r) THEN "dropped" ELSE rst[r]]
       /\ approver' = [r \in Req |-> IF mine(r) THEN 0 ELSE approver[r]]
       /\ rapp' = [r \in Req |-> IF mine(r) THEN 0 ELSE rapp[r]]
       /\ promptOn' = [r \in Req |-> IF mine(r) THEN 0 ELSE promptOn[r]]
       /\ hc' = [r \in Req |-> IF mine(r) THEN 0 ELSE hc[r]]
       /\ xcmd' = [r \in Req |-> IF mine(r) THEN 0 ELSE xcmd[r]]
    /\ sapp' = [sapp EXCEPT ![s] = {}]
    /\ flood' = IF s = 1 THEN 0 ELSE flood
    /\ UNCHANGED <<lifeVars, sinst, reattaches, tty, mboxVars, ran, resultOf, rules, saved>>

(***************************************************************************)
(* Escalation (spec 3.6; SR-7, SR-8, SR-9, FR-5, FR-10, OR-2, OR-3)        *)
(***************************************************************************)

\* Material the UNTRUSTED sandbox holds: every Session Anchor handed to a
\* session so far (all sessions share the sandbox), stale ones from earlier
\* instances included, or a MAC made with no key (0); its own certificate
\* (Sandbox ID sbx); certificates wrong in one bound field: another Domain's
\* (or forged), the Client CLI role, or a stale one of an earlier instance
\* kept in persistent state.
KnownAnchors == {0} \cup {AnchorOf(t, sinst[t]) : t \in {u \in Sess : sinst[u] # 0}}
BadCerts == {OTHERDOM, CLIROLE} \cup 1..(sbx - 1)
OwnAnchor(cs) == IF sinst[cs] # 0 THEN AnchorOf(cs, sinst[cs]) ELSE 0
\* Records with something wrong claim session 1 (the sessions are symmetric
\* for every check; "session 1 with session 2's anchor" is the cross-session
\* claim). A record with its own certificate and the claimed session's
\* current anchor ("plausible") may claim any session.
Creds(cs) ==
    {<<sbx, a>> : a \in {b \in KnownAnchors : cs = 1 \/ b = AnchorOf(cs, sbx)}}
    \cup (IF cs = 1 THEN {<<c, OwnAnchor(cs)>> : c \in BadCerts} ELSE {})
Plausible(cs, cr) == cr[1] = sbx /\ cr[2] = AnchorOf(cs, sbx)

\* The sandbox writes a record for a fresh request ID r (rename into the
\* mailbox). Only plausible records vary the argv (others ask CMD_OTHER:
\* what matters for them is which field is wrong); only AdversaryReq may
\* be other than plausible.
WriteRequest(r) ==
    /\ sbx # 0
    /\ ~written[r]
    /\ written' = [written EXCEPT ![r] = TRUE]
    /\ mbox' = [mbox EXCEPT ![r] = 1]
    /\ \E cs \in Sess : \E cr \in Creds(cs) :
       /\ r = AdversaryReq \/ Plausible(cs, cr)
       /\ \E cm \in (IF Plausible(cs, cr) THEN Asked ELSE {CMD_OTHER}) :
            /\ rsess' = [rsess EXCEPT ![r] = cs]
            /\ rcert' = [rcert EXCEPT ![r] = cr[1]]
            /\ ranc' = [ranc EXCEPT ![r] = cr[2]]
            /\ rcmd' = [rcmd EXCEPT ![r] = cm]
    /\ UNCHANGED <<lifeVars, sessVars, replays, reqVars, apprVars>>

\* The sandbox writes the record for AdversaryReq again: a duplicate or a
\* replay, possibly to a later coordinator instance. Reordering is free:
\* Verify picks any unread record. Copies are identical files, so a second
\* unread copy is equivalent to a replay written right after the first was
\* read; the model keeps at most one unread copy. A rejected record is
\* deleted and its content not kept: the same bytes fail the same check
\* again (certificates and anchors of instance i never validate under another).
Duplicate(r) ==
    /\ r = AdversaryReq
    /\ sbx # 0
    /\ written[r] /\ mbox[r] = 0 /\ rsess[r] # 0
    /\ replays < MaxReplays
    /\ mbox' = [mbox EXCEPT ![r] = 1]
    /\ replays' = replays + 1
    /\ UNCHANGED <<lifeVars, sessVars, written, rsess, rcert, ranc, rcmd, reqVars, apprVars>>

\* One more accepted request of session s would make its session's or the
\* Domain's pending requests more than the bounds allow (accept_request).
OverBoundS(s) ==
    \/ PendingN(s) >= ESC_SESSION_MAX
    \/ AllPendingN + 1 > ESC_MAX
OverBound(r) == OverBoundS(rsess[r])

\* (environment) The sandbox posts one more honest request of session 1
\* that the model counts but does not track (small scope: two tracked
\* request IDs, and a flood that only fills the queue). Accepted: it is
\* pending until its session or the instance ends. Past the bounds it is
\* denied at once, which changes nothing the model keeps. Its own end
\* (answer, timeout, cancel) is left out: the states it leads to are those
\* of a run without it, and a step that undoes another would give the
\* environment a cycle (see the fairness note at Spec).
FloodRequest ==
    /\ dphase = "running" /\ Owner
    /\ sbx = coord /\ ss[1] = "live" /\ sinst[1] = coord
    /\ flood < FloodMax
    /\ ~OverBoundS(1)
    /\ flood' = flood + 1
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars, reqVars, sapp, rules, saved>>

\* Approved with no human to ask (decided_without_human): by a rule (a = RULE)
\* or a session approval (a = SESSION); what runs is the argv asked for.
AutoApprove(r, a) ==
    /\ rst' = [rst EXCEPT ![r] = "approved"]
    /\ approver' = [approver EXCEPT ![r] = a]
    /\ rapp' = [rapp EXCEPT ![r] = rcmd[r]]
    /\ UNCHANGED <<promptOn, hc, xcmd, ran, resultOf>>

\* The coordinator reads one unread record (in any order). Single use
\* (SR-9): a request ID this instance has already seen is discarded. Then
\* the whole identity tuple is checked (Bound), before anything reaches a
\* human. An accepted request is then decided, in this order (wire.md 2.1,
\* accept_request, decided_without_human): denied at once past the bounds;
\* auto-approved when its argv matches a rule of the trusted config (SR-7,
\* SR-8); approved when its session approved this exact argv for the rest
\* of the session; denied at once when its session has no terminal (nobody
\* can be asked); else it waits for the owning session's decision.
Accepted(r) == rst[r] = "none" /\ Bound(r)
Verify(r) ==
    /\ dphase = "running" /\ Owner
    /\ mbox[r] = 1
    /\ mbox' = [mbox EXCEPT ![r] = 0]
    /\ \/ \* an ID this instance has seen: the copy is discarded (single use)
          /\ rst[r] # "none"
          /\ UNCHANGED <<rsess, rcert, ranc, rcmd, reqVars>>
       \/ \* not bound to the current identity tuple: rejected, file deleted
          /\ rst[r] = "none" /\ ~Bound(r)
          /\ rst' = [rst EXCEPT ![r] = "rejected"]
          /\ rsess' = [rsess EXCEPT ![r] = 0] /\ rcert' = [rcert EXCEPT ![r] = FORGED]
          /\ ranc' = [ranc EXCEPT ![r] = 0] /\ rcmd' = [rcmd EXCEPT ![r] = 0]
          /\ UNCHANGED <<approver, rapp, promptOn, hc, xcmd, ran, resultOf>>
       \/ \* too many pending: denied at once (OR-2: it gets its result)
          /\ Accepted(r) /\ OverBound(r)
          /\ Finish(r, "denied")
          /\ UNCHANGED <<rsess, rcert, ranc, rcmd, ran>>
       \/ \* argv matches a rule of the trusted config: auto-approved
          /\ Accepted(r) /\ ~OverBound(r) /\ RuleMatch(rcmd[r])
          /\ AutoApprove(r, RULE)
          /\ UNCHANGED <<rsess, rcert, ranc, rcmd>>
       \/ \* this session approved this exact argv ("approve-session")
          /\ Accepted(r) /\ ~OverBound(r) /\ ~RuleMatch(rcmd[r])
          /\ rcmd[r] \in sapp[rsess[r]]
          /\ AutoApprove(r, SESSION)
          /\ UNCHANGED <<rsess, rcert, ranc, rcmd>>
       \/ \* no terminal to ask: denied at once
          /\ Accepted(r) /\ ~OverBound(r) /\ ~RuleMatch(rcmd[r])
          /\ rcmd[r] \notin sapp[rsess[r]] /\ ~tty[rsess[r]]
          /\ Finish(r, "denied")
          /\ UNCHANGED <<rsess, rcert, ranc, rcmd, ran>>
       \/ \* waits for the owning session's decision
          /\ Accepted(r) /\ ~OverBound(r) /\ ~RuleMatch(rcmd[r])
          /\ rcmd[r] \notin sapp[rsess[r]] /\ tty[rsess[r]]
          /\ rst' = [rst EXCEPT ![r] = "waiting"]
          /\ UNCHANGED <<rsess, rcert, ranc, rcmd,
                         approver, rapp, promptOn, hc, xcmd, ran, resultOf>>
    /\ UNCHANGED <<lifeVars, sessVars, written, replays, apprVars>>

\* FR-5, DX-4: the prompt goes only to the CLI attached to the session the
\* verified record names. A detached session's request waits. One prompt
\* at a time per session: the others wait behind it (next_prompt shows the
\* oldest; the model lets any waiting one be next).
ShowPrompt(r) ==
    /\ rst[r] = "waiting"
    /\ dphase = "running" /\ Owner
    /\ att[rsess[r]]
    /\ \A q \in Req : ~(rst[q] = "shown" /\ rsess[q] = rsess[r])
    /\ rst' = [rst EXCEPT ![r] = "shown"]
    /\ promptOn' = [promptOn EXCEPT ![r] = rsess[r]]
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars,
                   approver, rapp, hc, xcmd, ran, resultOf, apprVars>>

\* A decision is accepted only from the attached CLI the prompt was sent to
\* (session control tuple (Domain, Coordinator ID, Client CLI ID, Session ID))
\* with that CLI's signature (lz_coord_decision).
Decider(s, r) ==
    /\ rst[r] = "shown"
    /\ dphase = "running" /\ Owner
    /\ promptOn[r] = s /\ att[s]

\* The developer, on session s's CLI, approves r: argv c runs.
HumanApproves(s, r, c) ==
    /\ rst' = [rst EXCEPT ![r] = "approved"]
    /\ approver' = [approver EXCEPT ![r] = s]
    /\ rapp' = [rapp EXCEPT ![r] = c]
    /\ promptOn' = [promptOn EXCEPT ![r] = 0]
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars, hc, xcmd, ran, resultOf>>

\* DECISION "approve". A "save-rule" whose rule cannot be saved (the
\* config file is refused by lz_rulesave) is this: the command still runs.
Approve(s, r) ==
    /\ Decider(s, r)
    /\ HumanApproves(s, r, rcmd[r])
    /\ UNCHANGED apprVars

\* DECISION "edit": the developer edits the argv and approves the edited form.
Edit(s, r) ==
    /\ Decider(s, r)
    /\ HumanApproves(s, r, CMD_EDITED)
    /\ UNCHANGED apprVars

\* DECISION "approve-session": approves r and, until the session ends,
\* every later request of the SAME session with the SAME argv.
ApproveSession(s, r) ==
    /\ Decider(s, r)
    /\ HumanApproves(s, r, rcmd[r])
    /\ sapp' = [sapp EXCEPT ![rsess[r]] = @ \cup {rcmd[r]}]
    /\ UNCHANGED <<rules, saved, flood>>

\* DECISION "save-rule": approves r and appends its exact argv as a rule to
\* the Domain's config file, which the coordinator adopts at once: later
\* requests of ANY session of the Domain, and of later instances, match it.
SaveRule(s, r) ==
    /\ Decider(s, r)
    /\ HumanApproves(s, r, rcmd[r])
    /\ rules' = rules \cup {rcmd[r]}
    /\ saved' = saved \cup {rcmd[r]}
    /\ UNCHANGED <<sapp, flood>>

Deny(s, r) ==
    /\ Decider(s, r)
    /\ Finish(r, "denied")
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars, ran, apprVars>>

\* SR-7, SR-8: the coordinator alone spawns exactly the approved argv
\* (no shell), in its own process group with PR_SET_PDEATHSIG.
Execute(r) ==
    /\ rst[r] = "approved"
    /\ dphase = "running" /\ Owner
    /\ rst' = [rst EXCEPT ![r] = "running"]
    /\ hc' = [hc EXCEPT ![r] = coord]
    /\ xcmd' = [xcmd EXCEPT ![r] = rapp[r]]
    /\ ran' = [ran EXCEPT ![r] = ran[r] + 1]
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars, approver, rapp, promptOn, resultOf,
                   apprVars>>

\* fork/exec failed (command not found, ...): outcome "failed".
SpawnFail(r) ==
    /\ rst[r] = "approved"
    /\ dphase = "running" /\ Owner
    /\ Finish(r, "failed")
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars, ran, apprVars>>

\* The host command exits (exit status, stdout, stderr captured): "completed".
CommandExit(r) ==
    /\ rst[r] = "running"
    /\ dphase = "running" /\ Owner
    /\ Finish(r, "completed")
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars, ran, apprVars>>

\* No decision in time, or the host command exceeded its time limit (it is
\* killed): outcome "timed-out".
Timeout(r) ==
    /\ rst[r] \in {"waiting", "shown", "running"}
    /\ dphase = "running" /\ Owner
    /\ Finish(r, "timedout")
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars, ran, apprVars>>

\* The requesting Escalation Client cancels (a cancel record, verified like
\* a request; or the client is interrupted). A running command is killed.
Cancel(r) ==
    /\ rst[r] \in {"waiting", "shown", "approved", "running"}
    /\ dphase = "running" /\ Owner
    /\ sbx # 0
    /\ Finish(r, "cancelled")
    /\ UNCHANGED <<lifeVars, sessVars, mboxVars, ran, apprVars>>

(***************************************************************************)
(* Specification                                                           *)
(***************************************************************************)
Next ==
    \/ \E s \in Sess : AcquireLock(s) \/ Join(s) \/ Detach(s) \/ CliCrash(s)
                       \/ Reattach(s) \/ SessionEnd(s)
    \/ MountAnchor \/ StartSidecar \/ InstallPolicy \/ StaleReport
    \/ StartSandbox \/ Publish
    \/ Teardown \/ DomainFail \/ CoordCrash
    \/ StopSandbox \/ StopSidecar \/ UnmountAnchor \/ RecoveryDone \/ TeardownDone
    \/ FloodRequest
    \/ \E r \in Req : WriteRequest(r) \/ Duplicate(r) \/ Verify(r) \/ ShowPrompt(r)
                      \/ Execute(r) \/ SpawnFail(r) \/ CommandExit(r)
                      \/ Timeout(r) \/ Cancel(r)
    \/ \E s \in Sess, r \in Req : Approve(s, r) \/ Edit(s, r) \/ Deny(s, r)
                                  \/ ApproveSession(s, r) \/ SaveRule(s, r)

\* The coordinator's own steps (the rest is environment: developer, CLIs,
\* the untrusted sandbox, host commands, failures).
CoordStep ==
    \/ MountAnchor \/ StartSidecar \/ InstallPolicy \/ StartSandbox \/ Publish
    \/ Teardown \/ StopSandbox \/ StopSidecar \/ UnmountAnchor
    \/ RecoveryDone \/ TeardownDone
    \/ \E r \in Req : Verify(r) \/ ShowPrompt(r) \/ Execute(r) \/ Timeout(r)

\* Fairness: weak fairness of the coordinator's steps only; the environment
\* may stop acting at any time (no developer decision, no command exit, no
\* session end is ever assumed). Every step of the model is bounded
\* (reattaches, replays, failures, request IDs, sessions) and no step returns
\* to an earlier state, so every behaviour is finite before it stutters;
\* WF(CoordStep) says it does not stutter while the coordinator can move.
\* Timeouts are coordinator steps enabled for every waiting, shown or
\* running request: nothing waits for a human or a command forever.
\* The Promela mirror renders this with its EnvStop step (see there).
Spec == Init /\ [][Next]_vars /\ WF_vars(CoordStep)

(***************************************************************************)
(* Safety properties (invariants). Names are shared with Lazaret.pml,      *)
(* protocol/README.md and the C code comments that rely on them.           *)
(***************************************************************************)

\* SR-7: a host command runs only when a human approved it: the CLI
\* attached to the owning session approved (or edited) this very request;
\* or that session approved this exact argv for the rest of the session
\* (a human decision, "approve-session", see SessionApprovalScoped); or its
\* ORIGINAL argv matches a rule that was in the trusted config the Domain
\* loaded or that a human decision ("save-rule") added: never one the
\* sandbox could have put there.
NoUnapprovedExecution ==
    \A r \in Req : hc[r] # 0 =>
        \/ approver[r] = rsess[r]
        \/ approver[r] = SESSION /\ rcmd[r] \in sapp[rsess[r]] /\ xcmd[r] = rcmd[r]
        \/ approver[r] = RULE /\ rcmd[r] \in InitRules \cup saved /\ xcmd[r] = rcmd[r]

\* SR-7, SR-8: what runs is exactly what was approved; an edited request
\* runs only as edited.
EditedRunsAsEdited ==
    \A r \in Req : hc[r] # 0 => xcmd[r] = rapp[r] /\ rapp[r] # 0

\* FR-5: a result is delivered only to the Escalation Client that made the
\* request (the result path of its own request ID).
ResultToRequester ==
    \A r \in Req : resultOf[r] \in {0, r}

\* FR-5, DX-4: a prompt is shown only on the CLI attached to the owning session.
PromptToOwner ==
    \A r \in Req : rst[r] = "shown" => promptOn[r] = rsess[r] /\ att[rsess[r]]

\* SR-9, FR-10: a request whose sandbox identity or Session Anchor is not the
\* currently bound tuple is never shown to a human or run.
NoUnboundRequestShownOrRun ==
    \A r \in Req : (rst[r] = "shown" \/ hc[r] # 0) => Bound(r)

\* A session approval approves only requests of the session that gave it
\* and only its exact argv, and lives only as long as that session.
SessionApprovalScoped ==
    /\ \A r \in Req : approver[r] = SESSION =>
          /\ rsess[r] \in Sess
          /\ rcmd[r] \in sapp[rsess[r]] /\ rapp[r] = rcmd[r]
    /\ \A s \in Sess : sapp[s] # {} => ss[s] = "live"

\* A session without a terminal is never shown a prompt (its request is
\* denied at once: nobody is there to answer).
NoTerminalNeverPrompts ==
    \A r \in Req : rst[r] = "shown" => tty[rsess[r]]

\* One prompt at a time on a session's CLI; the session's other requests wait.
OnePromptPerSession ==
    \A q, r \in Req :
        (q # r /\ rst[q] = "shown" /\ rst[r] = "shown") => promptOn[q] # promptOn[r]

\* The sandbox cannot make the coordinator hold more than ESC_SESSION_MAX
\* pending requests of a session or ESC_MAX of the Domain: past them, a
\* request is denied at once.
BoundedQueues ==
    /\ \A s \in Sess : PendingN(s) <= ESC_SESSION_MAX
    /\ AllPendingN <= ESC_MAX

\* SR-9 (freshness, single use): a request ID causes at most one host command.
SingleUse ==
    \A r \in Req : ran[r] <= 1

\* OR-1: at most one coordinator process is alive, and it holds the lock.
SingleOwner ==
    \A i \in Inst : alive[i] => coord = i

\* SR-5, SR-9: the sandbox runs only inside its own instance's sidecar netns,
\* with the policy that sidecar installed and attested for this start.
SandboxOnlyAfterPolicy ==
    sbx # 0 => sdc = sbx /\ policy = sbx

\* FR-7: resources stop in the order sandbox, sidecar, State Anchor (and
\* start in the reverse order); "absent" means all of them are gone.
RecoveryOrder ==
    /\ sbx # 0 => sdc # 0
    /\ sdc # 0 => anc
    /\ dphase = "absent" => (sbx = 0 /\ sdc = 0 /\ ~anc)

\* OR-3: no host command outlives its session, its coordinator, or a
\* Domain failure.
NoOrphanHostCommand ==
    \A r \in Req : hc[r] # 0 =>
        /\ alive[hc[r]] /\ hc[r] = coord /\ dphase = "running"
        /\ rsess[r] \in Sess /\ ss[rsess[r]] = "live"

(***************************************************************************)
(* Liveness (under WF_vars(CoordStep))                                          *)
(***************************************************************************)

\* OR-2: every accepted request reaches a delivered completed / denied /
\* timed-out / cancelled / failed result, unless its session ends first.
EveryRequestResolves ==
    \A r \in Req : (rst[r] \in Active) ~> (rst[r] \in {"delivered", "dropped"})

\* FR-6: a running Domain with no Client Session left is torn down, unless a
\* new session joins it first (it is no longer idle) or its coordinator
\* crashes meanwhile (then it is "failed" until the next leader recovers it,
\* FR-7: a dead process cannot stop anything).
IdleDomainTornDown ==
    (dphase = "running" /\ \A s \in Sess : ss[s] \notin {"launching", "live"})
        ~> (dphase \in {"absent", "failed"} \/ \E s \in Sess : ss[s] = "live")

=============================================================================
