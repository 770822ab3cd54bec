// Package constraints is a small constraint model over identified boolean
// variables, solved with preference-ordered search.
//
// A [Problem] holds variables of any comparable type V and constraints, each
// with a reason of type R chosen by the caller:
//
//   - Mandatory(v): v is selected.
//   - Prohibited(v): v is not selected.
//   - Dependency(s, c1, c2, …): if s is selected, so is at least one ci; the
//     order of the candidates is the preference. No candidates: s is not
//     selected.
//   - Conflict(a, b): a and b are not both selected.
//   - AtMost(n, vs…): at most n of the set vs are selected.
//
// These are the constraints OLM's resolver states (compound olm.constraint
// requirements are evaluated per bundle by the caller, as OLM does, and
// arrive here as Dependency candidates).
//
// # The preferred solution
//
// [Solve] returns one solution, defined as follows; it reproduces the search
// of Operator Lifecycle Manager v0.28's solver, made deterministic.
//
// Variables are ordered by first mention. The search keeps a set of chosen
// variables (initially empty) and a first-in first-out queue of choices. A
// choice is a list of candidates in order; initially the queue holds one
// choice with the single candidate v for each Mandatory(v), in the order the
// constraints were added. The search takes choices from the front of the
// queue until it is empty:
//
//   - If a candidate of the choice is already chosen, the choice is
//     satisfied and nothing happens.
//   - Otherwise the first candidate c such that the constraints together
//     with everything chosen so far and c have a solution is chosen. Then
//     one choice per Dependency constraint whose subject is c is added at
//     the back of the queue, in the order those constraints were added.
//
// When the queue is empty the solution is exactly the chosen set: every
// other variable is not selected.
//
// If the constraints have no solution at all, Solve reports it with an
// [*UnsatError] instead. Otherwise the search always succeeds, and its result
// is a solution:
//
//   - A choice always has a candidate that works. Each step keeps "the
//     constraints, plus the chosen variables, have a solution" true. A
//     choice is only queued when the variable it comes from is chosen, so
//     every solution containing the chosen variables selects one of its
//     candidates, and that candidate works.
//   - The chosen set C is itself a solution. Mandatory variables are chosen
//     (their choices have one candidate). Dependencies of a chosen variable
//     had their choices made, so they hold in C. Prohibited, Conflict and
//     AtMost forbid selections; some solution contains C, and selecting
//     fewer variables never breaks a constraint of those kinds.
//   - Consequently C is the unique smallest solution that contains the
//     choices: among the solutions keeping the preferred choices, it
//     selects as few variables as possible, and preference wins over
//     minimality. The separate minimisation step of OLM is not needed.
//
// # Conflicts
//
// When the constraints have no solution, [Solve] returns an [*UnsatError]
// whose Core is a minimal unsatisfiable subset of the constraints: together
// they have no solution, and dropping any one of them leaves a set that has
// one. The core is found from the SAT solver's failed assumptions and then
// shrunk by trying to drop each constraint in insertion order, so the same
// problem always gives the same core, listed in insertion order.
//
// [Problem.Grow] saves the growth of the variable index when the size of a
// problem is known.
//
// # Determinism, cancellation and concurrency
//
// The answer depends only on the problem: the same constraints added in the
// same order give the same solution or the same core, on every run. Solve
// honours its context during search and core shrinking (within about 20 ms
// for a single long SAT call) and then returns an error e with
// errors.Is(e, ctx.Err()). Solve never modifies the problem and keeps its
// state per call, so any number of goroutines may solve the same Problem
// concurrently as long as nobody adds to it meanwhile.
//
// The SAT engine is github.com/go-air/gini; none of its types appear in this
// package's API.
package constraints
