// Package fleet is what the Router knows and decides of its deployments
// as a fleet: each deployment's call health (its circuit, the delay its
// last busy answer asked for, what the last readiness check found,
// circuit.go), which calls may be sent again and how long to wait before
// (retry.go), the record of what a request tried on a deployment or a
// pool's members (tries.go), what each deployment lists (its models
// and cards, listing.go), the readiness checks and what GET /ready
// says of them (ready.go), a runtime's contract read from its health
// (contract.go), and the fleet's series (metrics.go). The Router
// composes them: its caller notes each call's outcome here and asks here
// whether to send it again; a pool request asks which members to pass
// over; its check loop runs Checks.Check for each deployment.
//
// Invariants:
//   - Only a call that failed before any answer (OutcomeFailed: refused,
//     reset before a reply, past its own bound, or answered 502, 503, 504
//     or 529) is ever sent again, and only while its caller's deadline
//     allows and its circuit stays closed; a plan some of whose calls
//     answered is never failed over (Attempt.FailedOver).
//   - The happy path takes no lock: a call answered on a closed circuit
//     with no failure counted reads two atomics and writes none.
//   - A half-open circuit admits one probe at a time; a probe that
//     decided nothing frees its place (Health.EndProbe).
//   - One Health lives as long as the process for each deployment name
//     and endpoint (Fleet.Of), so a reload that keeps a deployment keeps
//     its circuit.
//   - A deployment that is not required never makes the Router not
//     ready; one whose runtime speaks another contract gets no call
//     (Checks.Refusal, read without a lock).
//   - Messages name deployments and pools (configuration), never
//     request data, and never the version an upstream reported.
package fleet
