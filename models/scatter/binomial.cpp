// The closed form of scatter "binomial" (Open MPI's, MPICH's; Thakur,
// Rabenseifner, Gropp 2005: log2 p a + (p - 1)/p n b), blocks of m bytes,
// evaluated on the generator's tree with the terms of models/p2p_terms.hpp:
// a rank of relative rank r holds its subtree's s(r) blocks at
//   ready(r) = ready(parent) + F + C(s(r) m),   ready(root) = 0,
// and has its own block at ready(r) for a leaf, ready(r) + 2 local(m) for
// an inner rank (a copy out of its temp, after its children's flags). The
// root's children read at once (d of them). With the root at rank 0 no
// subtree wraps; inside one socket without contention it equals the
// simulator.
#include <algorithm>
#include <vector>

#include "models/model.hpp"
#include "models/p2p_terms.hpp"

namespace numacoll::models {

ModelInfo scatter_binomial_model() {
    ModelInfo info;
    info.collective = sched::Collective::scatter;
    info.name = "binomial";
    info.source = "Open MPI coll/tuned scatter binomial (MPICH's); Thakur, Rabenseifner, Gropp 2005";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        int root_children = 0;
        for (int bit = 1; bit < p; bit *= 2) ++root_children;
        std::vector<double> ready(p, 0.0);
        double done = t.local_copy_ns(m);  // the root's own block
        for (int rel = 1; rel < p; ++rel) {
            const int low = rel & -rel, parent = rel - low, size = std::min(low, p - rel);
            const int readers = parent == 0 ? root_children : 1;
            ready[rel] = ready[parent] + t.signal_ns(readers) + t.copy_ns(size * m, readers);
            done = std::max(done, ready[rel] + (size > 1 ? t.local_copy_ns(m) : 0.0));
        }
        return done;
    };
    return info;
}

}  // namespace numacoll::models
