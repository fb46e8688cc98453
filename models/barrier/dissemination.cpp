#include "models/barrier/dissemination.hpp"

#include <algorithm>

#include "models/p2p_terms.hpp"

namespace numacoll::models {

ModelInfo barrier_dissemination_model() {
    ModelInfo info;
    info.collective = sched::Collective::barrier;
    info.name = "dissemination";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.3, equation (6) at m = 0 (Hensgen et al.'s dissemination)";
    info.predict = [](const sched::CollectiveSpec&, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms terms = p2p_terms(params, joining_level(shape), false);
        double time = 0;
        for (int distance = 1; distance < p; distance *= 2) {
            if (terms.network) time += terms.copy_ns(0);
            else time += terms.signal_ns(shape.sockets > 1 ? std::min(distance, shape.threads_per_socket) : p);
        }
        return time;
    };
    return info;
}

}  // namespace numacoll::models
