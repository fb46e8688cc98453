// The closed form of reduce "rabenseifner" on p ranks (Rabenseifner 2004;
// Thakur, Rabenseifner, Gropp 2005: 2 log2 p a + 2 (p-1)/p n b + (p-1)/p n
// g), with the hand-over terms of models/p2p_terms.hpp, m the vector,
// p' = 2^floor(log2 p), e = p - p':
//   [e > 0: F(e) + R(m, e)]                       the excess ranks fold in
//   + sum over j = 1..log2 p' of F(p') + R(m / 2^j, p')    the halvings
//   + sum over j = 0..log2 p' - 1 of F(d) + C(2^j m / p', d),
//     d = p' / 2^(j+1) hand-overs at once          the binomial gather
//   + [the root is an excess rank: F + C(m)]      its host hands it the result.
// Fewer elements than p': the linear reduce, as Open MPI's. Exact inside
// one socket with equal pieces and no excess rank; with one, the excess
// fold's flag overlaps the first halving's as in the allreduce.
#include "models/exchange_terms.hpp"
#include "models/flat_models.hpp"

namespace numacoll::models {

ModelInfo reduce_rabenseifner_model() {
    ModelInfo info;
    info.collective = sched::Collective::reduce;
    info.name = "rabenseifner";
    info.source = "Rabenseifner 2004; Thakur, Rabenseifner, Gropp 2005: halvings then a binomial gather";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const int p = shape.ranks();
        const P2pTerms t = flat_terms(shape, params);
        const double m = static_cast<double>(spec.bytes);
        if (p == 1) return t.local_copy_ns(m);
        const int power = largest_power_of_two(p), excess = p - power;
        if (m / static_cast<double>(sched::element_bytes(spec)) < power)
            return flat_reduce_ns("linear", p, 1, t, m, 0);
        double time = excess > 0 ? t.signal_ns(excess) + t.fold_ns(m, excess) : 0.0;
        for (int mask = power / 2; mask >= 1; mask /= 2) time += t.signal_ns(power) + t.fold_ns(m * mask / power, power);
        for (int mask = 1; mask < power; mask *= 2) {
            const int at_once = power / (2 * mask);
            time += t.signal_ns(at_once) + t.copy_ns(m * mask / power, at_once);
        }
        // fold_adjacent: the excess ranks are the even ones below 2e.
        const bool root_is_excess = spec.root < 2 * excess && spec.root % 2 == 0;
        if (root_is_excess) time += t.signal_ns() + t.copy_ns(m);
        return time;
    };
    return info;
}

}  // namespace numacoll::models
