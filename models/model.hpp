// models: closed-form cost models of collective algorithms, as the source
// papers write them, in a registry keyed like the algorithms' (collective,
// name). A model predicts a time from the collective's spec (its size and
// options, read with the generators' OptionReader), the shape of the node
// and the cost parameters; it needs neither SimGrid nor the generator.
//
// A model is a guide to compare with, not a prediction of every effect: it
// leaves out what its paper leaves out (strip mining, flags, where data
// lives), and says so in its header.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "costs/params.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::models {

// One node as the papers' models see it: s sockets of q threads. Sockets
// are the socket groups the generators build their trees on
// (algo::top_level_domains); q is the largest one's size.
// ranks_per_node is the layout's; 0 stands for s q (every socket full).
struct NodeShape {
    int sockets = 1;             // s
    int threads_per_socket = 1;  // q
    int nodes = 1;
    int ranks_per_node = 0;
    // Every rank a thread of one process (the thread executor runs them so):
    // hand-overs pay no message overheads, whatever the schedule's ranks are.
    bool threads_only = false;
    int node_ranks() const { return ranks_per_node > 0 ? ranks_per_node : sockets * threads_per_socket; }
    int ranks() const { return node_ranks() * nodes; }
};

struct ModelInfo {
    sched::Collective collective;
    std::string name;    // the algorithm's name in the generators' registry
    std::string source;  // paper, section and equation
    // The predicted time in ns, or none where the model does not reach (a
    // shape its paper does not cover). `spec` carries every option it reads.
    std::function<std::optional<double>(const sched::CollectiveSpec& spec, const NodeShape& shape,
                                        const costs::Params& params)>
        predict;
};

}  // namespace numacoll::models
