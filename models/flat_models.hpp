// What the flat, hierarchical and leader models of bcast and reduce share:
// reading an algorithm's segment and fanout options as its generator does,
// the flat closed forms by algorithm name, and the level-by-level sum of
// the hierarchical compositions (Goglin et al., hierarchical
// communicators, section 3.2.3: the flat algorithm on each level's roots
// group; bottom-up for a reduction, top-down for a broadcast; the levels
// one after the other, so the times add).
#pragma once

#include <string>

#include "models/flat_terms.hpp"

namespace numacoll::models {

// The flat closed form of `algorithm` (linear, chain, pipeline, binary,
// binomial, split-binary, in-order-binary) over p ranks.
double flat_bcast_ns(const std::string& algorithm, int p, int fanout, const P2pTerms& terms, double bytes,
                     double segment_bytes);
double flat_reduce_ns(const std::string& algorithm, int p, int fanout, const P2pTerms& terms, double bytes,
                      double segment_bytes);

// The levels of a layout as the hierarchical algorithms see them, bottom
// first: the ranks of one socket (same_socket), the sockets of a node
// (other_socket), the nodes (network); levels of one group are left out.
struct ModelLevel {
    int group_size;
    costs::Level level;
};
std::vector<ModelLevel> model_levels(const NodeShape& shape);

// A flat bcast/reduce model (and its hier- version, `hierarchical`) for the registry.
ModelInfo flat_model(sched::Collective collective, const std::string& flat_name, bool hierarchical);

}  // namespace numacoll::models
