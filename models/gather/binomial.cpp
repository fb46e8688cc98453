#include <algorithm>

#include "models/flat_terms.hpp"
#include "models/gather/gather.hpp"

namespace numacoll::models {

namespace {

double binomial_gather_ns(int p, const P2pTerms& terms, double m) {
    if (p <= 1) return terms.local_copy_ns(m);
    std::vector<double> done(p, 0);
    for (int pos = p - 1; pos >= 0; --pos) {
        std::vector<int> children = flat_tree_children(FlatTreeShape::binomial, p, 1, pos);
        if (children.empty()) continue;
        std::sort(children.rbegin(), children.rend());  // the generator walks positions down
        double t = pos == 0 ? 0 : terms.local_copy_ns(m);  // its own block into its collection buffer
        const auto is_leaf = [&](int child) { return flat_tree_children(FlatTreeShape::binomial, p, 1, child).empty(); };
        const int leaf_children = static_cast<int>(std::count_if(children.begin(), children.end(), is_leaf));
        for (int child : children) {
            const bool leaf = is_leaf(child);
            const int blocks = std::min(child & -child, p - child);
            t = std::max(t, (leaf ? 0 : done[child]) + terms.signal_ns(1, leaf ? leaf_children : 1)) + terms.copy_ns(blocks * m);
        }
        done[pos] = pos == 0 ? t + terms.local_copy_ns(m) : t;
    }
    return done[0];
}

}  // namespace

ModelInfo gather_binomial_model() {
    ModelInfo info;
    info.collective = sched::Collective::gather;
    info.name = "binomial";
    info.source = "Open MPI coll/tuned binomial gather; Thakur, Rabenseifner, Gropp 2005, log2 p a + (p - 1) m b";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        return binomial_gather_ns(shape.ranks(), flat_terms(shape, params),
                                  static_cast<double>(spec.bytes));
    };
    return info;
}

}  // namespace numacoll::models
