#include "models/flat_models.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "models/bcast/leader.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

namespace {

FlatTreeShape shape_of(const std::string& algorithm) {
    if (algorithm == "linear") return FlatTreeShape::linear;
    if (algorithm == "chain" || algorithm == "pipeline") return FlatTreeShape::chain;
    if (algorithm == "binomial") return FlatTreeShape::binomial;
    if (algorithm == "knomial") return FlatTreeShape::knomial;
    return FlatTreeShape::binary;
}

int fanout_of(const std::string& algorithm, int fanout) { return algorithm == "pipeline" ? 1 : fanout; }

}  // namespace

double flat_bcast_ns(const std::string& algorithm, int p, int fanout, const P2pTerms& terms, double bytes,
                     double segment_bytes) {
    if (algorithm == "split-binary") return split_binary_bcast_ns(p, terms, bytes, segment_bytes);
    return flat_tree_bcast_ns(shape_of(algorithm), p, fanout_of(algorithm, fanout), terms, bytes, segment_bytes);
}

double flat_reduce_ns(const std::string& algorithm, int p, int fanout, const P2pTerms& terms, double bytes,
                      double segment_bytes) {
    if (algorithm == "in-order-binary") return in_order_binary_reduce_ns(p, terms, bytes, segment_bytes);
    return flat_tree_reduce_ns(shape_of(algorithm), p, fanout_of(algorithm, fanout), terms, bytes, segment_bytes);
}

std::vector<ModelLevel> model_levels(const NodeShape& shape) {
    std::vector<ModelLevel> levels;
    if (shape.threads_per_socket > 1) levels.push_back({shape.threads_per_socket, costs::Level::same_socket});
    if (shape.sockets > 1) levels.push_back({shape.sockets, costs::Level::other_socket});
    if (shape.nodes > 1) levels.push_back({shape.nodes, costs::Level::network});
    return levels;
}

ModelInfo flat_model(sched::Collective collective, const std::string& flat_name, bool hierarchical) {
    const bool reduction = collective == sched::Collective::reduce;
    ModelInfo info;
    info.collective = collective;
    info.name = (hierarchical ? "hier-" : "") + flat_name;
    info.source = hierarchical
                      ? fmt::format("Goglin et al., hierarchical communicators, section 3.2.3: the flat {} "
                                    "(Pjesivac-Grbovic et al. 2007; Thakur, Rabenseifner, Gropp 2005) on each level, {}",
                                    flat_name, reduction ? "bottom-up" : "top-down")
                      : fmt::format("Open MPI coll/tuned {} {} (Pjesivac-Grbovic et al. 2007; Thakur, Rabenseifner, "
                                    "Gropp 2005), Hockney/LogGP terms as Goglin et al., section 6 measure it",
                                    flat_name, reduction ? "reduce" : "bcast");
    info.predict = [flat_name, hierarchical, reduction, name = info.name](
                       const sched::CollectiveSpec& spec, const NodeShape& shape,
                       const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, name);
        double segment = static_cast<double>(options.bytes("segment"));
        if (reduction) segment -= std::fmod(segment, 8.0);  // whole 8-byte elements, as the generator cuts them
        const int fanout = flat_name == "chain" ? options.integer("fanout", 1)
                           : flat_name == "knomial" ? options.integer("radix", 2)
                                                    : 1;
        const double m = static_cast<double>(spec.bytes);
        const auto run = [&](int p, costs::Level level) {
            const P2pTerms terms = p2p_terms(params, level, !shape.threads_only);
            return reduction ? flat_reduce_ns(flat_name, p, fanout, terms, m, segment)
                             : flat_bcast_ns(flat_name, p, fanout, terms, m, segment);
        };
        if (!hierarchical) return run(shape.ranks(), joining_level(shape));
        double total = 0;
        for (const ModelLevel& level : model_levels(shape)) total += run(level.group_size, level.level);
        // A reduce's root alone copies its input to its output.
        if (reduction && shape.ranks() == 1) total = run(1, costs::Level::same_socket);
        return total;
    };
    return info;
}

// The catalog's families (algorithms/catalog.def): every flat tree of
// algorithms/patterns/flat_trees and its hier- version, in the generators' order.
std::vector<ModelInfo> reduce_flat_models() {
    std::vector<ModelInfo> models;
    for (bool hierarchical : {false, true})
        for (const char* flat : {"linear", "chain", "pipeline", "binary", "binomial", "in-order-binary"})
            models.push_back(flat_model(sched::Collective::reduce, flat, hierarchical));
    return models;
}

std::vector<ModelInfo> bcast_flat_models() {
    std::vector<ModelInfo> models;
    for (bool hierarchical : {false, true})
        for (const char* flat : {"linear", "chain", "pipeline", "split-binary", "binary", "binomial", "knomial"})
            models.push_back(flat_model(sched::Collective::bcast, flat, hierarchical));
    models.push_back(bcast_leader_model());
    return models;
}

}  // namespace numacoll::models
