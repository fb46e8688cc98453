// The closed form of gather "linear-sync" (Open MPI's algorithm 3), blocks
// of m bytes, first segments of f (option segment; the whole block by
// default), with the terms of models/p2p_terms.hpp: the root calls the
// p - 1 others in turn, each call a signal (a zero-byte message between
// nodes) and the rank's first segment back, then takes the rests, whose
// signals went up with the first's (two lines into the root at once,
// F(2, 2)), then copies its own block:
//   (p - 1)(S + F + C(f)) + (f < m: (p - 1) C(m - f)) + local(m),
// S the call, F = F(2, 2) when f < m. Inside one socket it equals the simulator.
#include <cmath>

#include "models/p2p_terms.hpp"
#include "schedule/options.hpp"
#include "models/gather/gather.hpp"

namespace numacoll::models {

ModelInfo gather_linear_sync_model() {
    ModelInfo info;
    info.collective = sched::Collective::gather;
    info.name = "linear-sync";
    info.source = "Open MPI coll/tuned gather linear_sync: one call and first segment per rank, in turn";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        double segment = static_cast<double>(sched::OptionReader(spec, "linear-sync").bytes("segment"));
        segment -= std::fmod(segment, static_cast<double>(sched::element_bytes(spec)));
        const double first = segment == 0 || segment >= m ? m : segment;
        const double call = t.network ? t.copy_ns(0) : t.signal_ns();
        // Called, a rank signals its first segment and its rest at once: two lines into the root.
        const double flag = first < m ? t.signal_ns(2, 2) : t.signal_ns();
        double time = (p - 1) * (call + flag + t.copy_ns(first));
        if (first < m) time += (p - 1) * t.copy_ns(m - first);
        return time + t.local_copy_ns(m);
    };
    return info;
}

}  // namespace numacoll::models
