// The closed forms of Open MPI's scatter-allgather broadcasts
// (algorithms/bcast/scattered.hpp; Thakur, Rabenseifner, Gropp 2005,
// section 4.3: (log2 p + p - 1) a + 2 (p-1)/p n b for the ring), evaluated
// on the generators' rounds with the hand-over terms of
// models/p2p_terms.hpp. Every round's flags go out before its copies, so
// in a round of d hand-overs relative rank r, handed blocks of b bytes by
// s, holds them at
//   ready'(r) = max(ready(r), ready(s) + F(d)) + C(b, d),
// the root's ready staying 0 (its input is announced at the start). The
// rounds are the generators' (the binomial scatter, then the ring's p - 1
// steps or the recursive doubling with Open MPI's fix-ups), written again
// here because a model does not run generators. Fewer elements than ranks:
// the linear broadcast. Exact inside one socket without contention.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

enum class ScatteredAllgather { recursive_doubling, ring };

// nullopt where the shape has no flat terms.
std::optional<double> scattered_bcast_ns(const sched::CollectiveSpec& spec, const NodeShape& shape,
                                         const costs::Params& params, ScatteredAllgather allgather);

}  // namespace numacoll::models
