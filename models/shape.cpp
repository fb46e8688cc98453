#include "models/shape.hpp"

#include <algorithm>

#include "algorithms/hierarchy.hpp"

namespace numacoll::models {

NodeShape node_shape(const algo::Layout& layout) {
    const auto sockets = algo::top_level_domains(algo::build_node_hierarchy(layout));
    NodeShape shape;
    shape.sockets = static_cast<int>(sockets.size());
    for (const auto& socket : sockets) shape.threads_per_socket = std::max(shape.threads_per_socket, static_cast<int>(socket.size()));
    shape.nodes = layout.nodes;
    shape.ranks_per_node = layout.ranks_per_node;
    return shape;
}

}  // namespace numacoll::models
