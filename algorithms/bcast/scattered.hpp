// The frame of Open MPI's scatter-allgather broadcasts (coll_tuned_bcast
// algorithms 8 and 9, Kurnosov's; van de Geijn's bandwidth-optimal
// broadcast, Thakur, Rabenseifner, Gropp 2005, section 4.3): the root's
// vector is cut into p blocks of ceil(n/p) elements (of bytes where the
// vector is not whole elements; the last ones shorter or empty), block v
// belongs to relative rank v = (rank - root) mod p, a
// binomial tree scatters them (relative rank v receives its subtree's
// blocks [v, v + lowbit(v)) in one piece, straight into its output), and an
// allgather among all ranks completes every output. A vector of fewer
// elements than ranks runs the linear broadcast instead, as Open MPI's does.
//
// Invariants: the allgather's rounds are over relative ranks; a hand-over
// of blocks a rank holds already is left out (the root holds the whole
// vector from the start, an inner rank of the scatter its subtree's; Open
// MPI receives them again, over the data that others may be reading);
// ranks are MPI processes.
#pragma once

#include <functional>

#include "algorithms/patterns/pieces.hpp"

namespace numacoll::algo {

// Hands `sends` over (fold-free), leaving out those to the root (relative
// rank 0) and those of blocks the receiver holds already (the ring's into
// a scatter subtree: Open MPI receives them again).
void pass_to_non_root(Pieces& pieces, std::vector<Pieces::Send> sends, const std::string& label);

// The allgather phase over p relative ranks, after the scatter; block v is piece v.
using ScatteredAllgather = std::function<void(Pieces& pieces, int ranks)>;

Schedule scatter_then_allgather(const CollectiveSpec& spec, const Layout& layout, const ScatteredAllgather& allgather);

}  // namespace numacoll::algo
