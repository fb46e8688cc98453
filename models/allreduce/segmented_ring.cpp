// The closed form of allreduce "segmented-ring": the ring on chunks of p
// segments, one after the other (models/exchange_terms.hpp).
#include <cmath>

#include "models/exchange_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo allreduce_segmented_ring_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "segmented-ring";
    info.source = "Open MPI coll/tuned allreduce segmented_ring: the ring of Thakur, Rabenseifner, Gropp 2005 on "
                  "chunks of p segments (models/exchange_terms.hpp)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, "segmented-ring");
        double segment = static_cast<double>(options.bytes("segment"));
        segment -= std::fmod(segment, static_cast<double>(sched::element_bytes(spec)));  // whole elements
        return segmented_ring_allreduce_ns(shape.ranks(), flat_terms(shape, params),
                                           static_cast<double>(spec.bytes), segment,
                                           static_cast<double>(sched::element_bytes(spec)));
    };
    return info;
}

}  // namespace numacoll::models
