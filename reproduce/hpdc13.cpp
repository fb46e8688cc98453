// HPDC'13 (Li, Hoefler, Snir, and its extended version): the one-cache-line
// model checks of section 3.4, the tree/tiled crossovers (Figures 18-19), the
// broadcast and reduction trees (Figures 10-12), the tiled variants (13),
// the algorithms on one node (14) and on 16 nodes (21), barrier scaling (25).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "algorithms/registry.hpp"
#include "costs/params.hpp"
#include "models/registry.hpp"
#include "models/shape.hpp"
#include "reproduce/findings.hpp"
#include "reproduce/sweep.hpp"

namespace numacoll::reproduce {

namespace {

using C = sched::Collective;

Setting on(const std::string& machine, C collective = C::allreduce, const std::string& algorithm = "tree") {
    Setting setting;
    setting.topology = machine;
    setting.collective = collective;
    setting.algorithm = algorithm;
    return setting;
}

// T(64 B) - T(0 B) of the tree allreduce against the paper's model and measurement.
Outcome one_line(Experiment& experiment, const std::string& machine, double model_ns, double measured_ns,
                 const std::string& note) {
    Setting setting = on(machine);
    setting.bytes = 0;
    const double empty = experiment.time_ns(setting);
    setting.bytes = 64;
    const double line = experiment.time_ns(setting) - empty;
    Outcome outcome;
    outcome.numacoll = fmt::format("{:.1f} ns ({} against the model, {} against the measurement)", line,
                                   percent(line / model_ns), percent(line / measured_ns));
    outcome.command = sim_command(setting, {0, 64});
    const double error = std::abs(line / measured_ns - 1);
    outcome.verdict = error <= 0.10 ? Verdict::reproduced : error <= 0.25 ? Verdict::qualitative : Verdict::not_reproduced;
    outcome.why = fmt::format("within 10% of the measured {:.1f} ns is reproduced; {}", measured_ns, note);
    return outcome;
}

// An allreduce's HPDC'13 closed form (tree: equation 5, tiled: 11) over the
// sweep's sizes, as Figure 18 draws them.
Series model_series(Experiment& experiment, const std::string& machine, const std::string& algorithm,
                    const std::vector<std::uint64_t>& sizes) {
    const models::ModelInfo* model = models::find_model(sched::Collective::allreduce, algorithm);
    Series series{algorithm + ", " + model->source.substr(model->source.find("HPDC'13")), {}, {}};
    const Setting setting = experiment.resolved(on(machine));
    const auto loaded = std::make_shared<const topo::Machine>(topo::load_machine(setting.topology));
    const costs::Params params = costs::params_for(*loaded, setting.params);
    const models::NodeShape shape = models::node_shape(algo::make_layout(loaded, {}));
    for (std::uint64_t bytes : sizes) {
        sched::CollectiveSpec spec;
        spec.collective = sched::Collective::allreduce;
        spec.algorithm = algorithm;
        spec.bytes = bytes;
        for (const auto& option : algo::find_algorithm(spec.collective, algorithm).options)
            spec.options.emplace(option.name, option.default_value);
        if (const auto ns = model->predict(spec, shape, params)) {
            series.x.push_back(static_cast<double>(bytes));
            series.y.push_back(*ns / 1000);
        }
    }
    return series;
}

Outcome crossover(Experiment& experiment, const std::string& machine, double paper_bytes, const std::string& figure) {
    const Sweep result = sweep(experiment, on(machine), {algorithm("tree"), algorithm("tiled"), algorithm("dissemination")},
                               doubling(512, 256 << 10));
    Outcome outcome;
    outcome.command = sim_command(on(machine), result.sizes, {"tree", "tiled", "dissemination"});
    std::vector<Series> lines = result.series_us();
    lines.push_back(model_series(experiment, machine, "tree", result.sizes));
    lines.push_back(model_series(experiment, machine, "tiled", result.sizes));
    FigureData plot{figure, fmt::format("Allreduce on {}: tree against tiled-reduce-broadcast", machine), "bytes",
                    "time (us)", true, true, lines, {{'x', paper_bytes, "crossover"}}};
    outcome.figures.push_back(plot);
    const auto at = crossover_bytes(result, "tree", "tiled");
    if (!at) {
        outcome.numacoll = "no crossover between 512 B and 256 KiB";
        outcome.why = "tree never gives way to tiled in the sweep";
        return outcome;
    }
    const double factor = std::max(*at / paper_bytes, paper_bytes / *at);
    outcome.numacoll = fmt::format("tiled overtakes tree at {} (factor {:.2f} from the paper's)", bytes_text(*at), factor);
    outcome.verdict = factor <= 1.5 ? Verdict::reproduced : Verdict::qualitative;
    outcome.why = factor <= 1.5
                      ? "within a factor 1.5"
                      : "tree is best for small vectors and tiled for large ones, as in the paper, but the switch comes "
                        "early: the tree's reduction levels and its broadcast are bandwidth-bound from a few KiB on in "
                        "the model (estimated per-stream rates of 8-13 GB/s between cores), where the paper's "
                        "measured tree stays latency-bound up to 16 KiB; see docs/fidelity.md";
    return outcome;
}

std::vector<Variant> broadcast_trees() {
    return {with_option("1-stage", "bcast", "1stage"), with_option("2-stage", "bcast", "2stage"),
            {"2-ary", [](Setting& s) { s.options["bcast"] = "nary"; s.options["arity"] = "2"; }},
            {"3-ary", [](Setting& s) { s.options["bcast"] = "nary"; s.options["arity"] = "3"; }},
            {"4-ary", [](Setting& s) { s.options["bcast"] = "nary"; s.options["arity"] = "4"; }}};
}

Sweep broadcast_sweep(Experiment& experiment, const std::string& machine) {
    return sweep(experiment, on(machine, C::bcast), broadcast_trees(), doubling(1024, 4 << 20));
}

// Where `winner` is not the best, which variants are, with their counts of
// sizes: "2-stage at 3, 4-ary at 1" ("" when `winner` wins everywhere).
std::string best_elsewhere(const Sweep& result, const std::string& winner) {
    std::map<std::string, int> others;
    for (std::size_t i = 0; i < result.sizes.size(); ++i)
        if (result.best(i) != winner) ++others[result.best(i)];
    std::string elsewhere;
    for (const auto& [label, sizes] : others) elsewhere += fmt::format("{}{} at {}", elsewhere.empty() ? "" : ", ", label, sizes);
    return elsewhere;
}

Outcome best_broadcast(Experiment& experiment, const std::string& machine, const std::string& winner,
                       const std::string& figure) {
    const Sweep result = broadcast_sweep(experiment, machine);
    Outcome outcome;
    Setting setting = on(machine, C::bcast);
    setting.options["bcast"] = winner == "1-stage" ? "1stage" : "2stage";
    outcome.command = sim_command(setting, result.sizes) + " (and --bcast 1stage|2stage|nary --arity 2|3|4)";
    int wins = 0;
    const std::string count = best_count(result, winner, &wins);
    const std::string elsewhere = best_elsewhere(result, winner);
    outcome.numacoll = fmt::format("{} is best at {}", winner, count) + (elsewhere.empty() ? "" : "; best elsewhere: " + elsewhere);
    const int n = static_cast<int>(result.sizes.size());
    outcome.verdict = wins == n ? Verdict::reproduced : 2 * wins > n ? Verdict::qualitative : Verdict::not_reproduced;
    outcome.why = wins == n ? "best at every size, as the paper says ('always')"
                            : "the paper finds it best at every size; docs/fidelity.md says where the simulation differs";
    outcome.figures.push_back({figure, fmt::format("Broadcast trees on {}", machine), "bytes", "time (us)", true, true,
                               result.series_us(), {{'x', 768.0 * 1024, "768 KB"}}});
    return outcome;
}

}  // namespace

std::vector<Finding> hpdc13_findings() {
    std::vector<Finding> list;
    list.push_back({"hpdc13-westmere-line", "HPDC'13 3.4",
                    "Westmere (2 x X5650), 12 threads, tree allreduce, T(64 B) - T(0 B)",
                    "one cache line costs 3(Rs+2Rl) + (Rr+2Rl) + (Rr+Rl) = 306.7 ns by the model, 339.8 ns measured",
                    [](Experiment& e) {
                        return one_line(e, "westmere", 306.7, 339.8,
                                        "Rl, Rs and Rr are the paper's own BenchIT measurements");
                    }});
    list.push_back({"hpdc13-magnycours-line", "HPDC'13 3.4",
                    "Magny-Cours (4 x Opteron 6136), 32 threads, tree allreduce, T(64 B) - T(0 B)",
                    "3(Rs+2Rl) + 2(Rr+2Rl) + (Rd+Rl) + (Rs+Rl) = 608.4 ns by the model, 647.4 ns measured",
                    [](Experiment& e) {
                        return one_line(e, "magnycours", 608.4, 647.4,
                                        "the paper prints Rs, Rr and Rd only in a figure, so magnycours' "
                                        "other_socket latency is fitted to the 608.4 ns total (its source says so): "
                                        "only the comparison with the measured 647.4 ns is a test");
                    }});
    list.push_back({"hpdc13-westmere-crossover", "HPDC'13 3.3-3.4, Figures 14, 18, 19", "Westmere, 12 threads, allreduce",
                    "tree is best below 16 KB, tiled-reduce-broadcast above",
                    [](Experiment& e) { return crossover(e, "westmere", 16 * 1024, "hpdc13-fig18-19-westmere-crossover"); }});
    list.push_back({"hpdc13-magnycours-crossover", "HPDC'13 3.4", "Magny-Cours, 32 threads, allreduce",
                    "the tree/tiled crossover is at 14 KB",
                    [](Experiment& e) { return crossover(e, "magnycours", 14 * 1024, "hpdc13-magnycours-crossover"); }});
    list.push_back({"hpdc13-westmere-bcast", "HPDC'13 3.1, Figure 10", "Westmere, 12 threads, broadcast trees",
                    "a one-stage broadcast is best at every size",
                    [](Experiment& e) { return best_broadcast(e, "westmere", "1-stage", "hpdc13-fig10-westmere-bcast"); }});
    list.push_back({"hpdc13-magnycours-bcast", "HPDC'13 3.1, Figure 11", "Magny-Cours, 32 threads, broadcast trees",
                    "a two-stage broadcast is best at every size",
                    [](Experiment& e) { return best_broadcast(e, "magnycours", "2-stage", "hpdc13-fig11-magnycours-bcast"); }});
    list.push_back({"hpdc13-flatter-trees", "HPDC'13 3.1, Figures 10-11", "Westmere and Magny-Cours, broadcast trees",
                    "flatter broadcast trees gain much more above 768 KB (the data no longer fits the L3)",
                    [](Experiment& e) {
                        Outcome outcome;
                        int holds = 0;
                        for (const std::string machine : {"westmere", "magnycours"}) {
                            const Sweep result = broadcast_sweep(e, machine);
                            auto gain = [&](std::size_t i) { return result.ns.at("2-ary")[i] / result.ns.at("1-stage")[i]; };
                            double small = 0, large = 0;
                            int n_small = 0, n_large = 0;
                            for (std::size_t i = 0; i < result.sizes.size(); ++i) {
                                if (result.sizes[i] <= (256u << 10)) small += gain(i), ++n_small;
                                if (result.sizes[i] >= (1u << 20)) large += gain(i), ++n_large;
                            }
                            small /= n_small;
                            large /= n_large;
                            holds += large > 1.1 * small;
                            outcome.numacoll += fmt::format("{}{}: 2-ary / 1-stage = {:.2f} up to 256 KiB, {:.2f} from 1 MiB",
                                                            outcome.numacoll.empty() ? "" : "; ", machine, small, large);
                        }
                        outcome.command = sim_command(on("westmere", C::bcast), doubling(1024, 4 << 20)) +
                                          " --bcast nary --arity 2 (and --bcast 1stage)";
                        outcome.verdict = holds == 2 ? Verdict::reproduced : holds == 1 ? Verdict::qualitative
                                                                                        : Verdict::not_reproduced;
                        outcome.why = holds == 2 ? "the flat tree's advantage grows by more than 10% past the L3 on both machines"
                                                 : "the simulated advantage of flat trees does not grow past 768 KB. "
                                                   "Strips (auto: 128 KiB on Westmere, as the paper strip-mines) keep "
                                                   "every pass in the L3, and where passes do outgrow it (--strip off) "
                                                   "the flat tree's eleven readers evict the root's vector before the "
                                                   "last of them read it, so its advantage shrinks instead; "
                                                   "docs/fidelity.md gives the mechanisms tried and why none makes "
                                                   "extra passes cost more past the L3";
                        return outcome;
                    }});
    list.push_back({"hpdc13-binary-reduction", "HPDC'13 3.1, Figure 12",
                    "Magny-Cours (32 threads; Figure 12) and Westmere (12 threads; 'similar results'), reduce trees",
                    "a binary reduction tree beats every n-ary one",
                    [](Experiment& e) {
                        Outcome outcome;
                        int wins = 0, total = 0;
                        for (const std::string machine : {"magnycours", "westmere"}) {
                            std::vector<Variant> arities;
                            for (const char* n : {"2", "3", "4", "8"})
                                arities.push_back(with_option(std::string(n) + "-ary", "arity", n));
                            const Sweep result = sweep(e, on(machine, C::reduce), arities, doubling(1024, 4 << 20));
                            int here = 0;
                            const std::string count = best_count(result, "2-ary", &here);
                            const std::string elsewhere = best_elsewhere(result, "2-ary");
                            outcome.numacoll += fmt::format("{}{}: binary is best at {}{}", outcome.numacoll.empty() ? "" : "; ",
                                                            machine, count, elsewhere.empty() ? "" : " (" + elsewhere + ")");
                            wins += here;
                            total += static_cast<int>(result.sizes.size());
                            outcome.figures.push_back({fmt::format("hpdc13-fig12-{}-reduce", machine),
                                                       fmt::format("Reduction trees on {}", machine), "bytes", "time (us)",
                                                       true, true, result.series_us(), {}});
                        }
                        outcome.command = sim_command(on("westmere", C::reduce), doubling(1024, 4 << 20)) +
                                          " --arity 2 (and 3, 4, 8; and -t magnycours)";
                        outcome.verdict = wins == total ? Verdict::reproduced : 2 * wins > total ? Verdict::qualitative
                                                                                                : Verdict::not_reproduced;
                        outcome.why = wins == total
                                          ? "binary is best at every size on both machines; equation 1 grows with n"
                                          : "binary must be best at every size on both machines. On Westmere's 6-core "
                                            "sockets a ternary tree needs two rounds (2 + 1 children on the root's path) "
                                            "where a binary one needs three (1 + 1 + 1): the same three children read, "
                                            "and the binary tree pays one more pass over its partial result and one "
                                            "more hand-over. The paper's equation 1 counts (n - 1) ceil(log_n q) children, "
                                            "4 for a ternary tree at q = 6, as if every level were full: docs/fidelity.md";
                        return outcome;
                    }});
    list.push_back({"hpdc13-tiled-variants", "HPDC'13 3.2, Figure 13",
                    "Magny-Cours (32 threads; Figure 13) and Westmere (12 threads; 'similar results'), allreduce",
                    "hierarchical tiled-reduce >> cyclic tiled-reduce >~ naive tiled-reduce",
                    [](Experiment& e) {
                        Outcome outcome;
                        int much_better = 0, cyclic_ahead = 0, total = 0;
                        for (const std::string machine : {"magnycours", "westmere"}) {
                            const Sweep result = sweep(e, on(machine),
                                                       {algorithm("tiled"), algorithm("tiled-cyclic"), algorithm("tiled-naive")},
                                                       doubling(4096, 4 << 20));
                            int better_here = 0, cyclic_here = 0;
                            double smallest_gain = 1e9;
                            for (std::size_t i = 0; i < result.sizes.size(); ++i) {
                                const double tiled = result.ns.at("tiled")[i], cyclic = result.ns.at("tiled-cyclic")[i];
                                const double naive = result.ns.at("tiled-naive")[i];
                                better_here += cyclic >= 1.2 * tiled;
                                cyclic_here += cyclic <= naive * 1.001;
                                smallest_gain = std::min(smallest_gain, std::min(cyclic, naive) / tiled);
                            }
                            const int n = static_cast<int>(result.sizes.size());
                            outcome.numacoll += fmt::format("{}{}: tiled is >= 1.2x faster than both at {} of {} sizes (at "
                                                            "least {:.2f}x), cyclic <= naive at {} of {}",
                                                            outcome.numacoll.empty() ? "" : "; ", machine, better_here, n,
                                                            smallest_gain, cyclic_here, n);
                            much_better += better_here;
                            cyclic_ahead += cyclic_here;
                            total += n;
                            outcome.figures.push_back({fmt::format("hpdc13-fig13-{}-tiled", machine),
                                                       fmt::format("Tiled-reduce variants on {}", machine), "bytes",
                                                       "time (us)", true, true, result.series_us(), {}});
                        }
                        outcome.command = sim_command(on("magnycours"), doubling(4096, 4 << 20),
                                                      {"tiled", "tiled-cyclic", "tiled-naive"}) + " (and -t westmere)";
                        outcome.verdict = much_better == total && cyclic_ahead == total ? Verdict::reproduced
                                          : much_better * 2 > total                     ? Verdict::qualitative
                                                                                        : Verdict::not_reproduced;
                        outcome.why = "on both machines, 'significantly better' read as at least 1.2x at every size, "
                                      "'slightly better' as never worse";
                        return outcome;
                    }});
    list.push_back({"hpdc13-dissemination-one-node", "HPDC'13 3.3, Figure 14", "Westmere and Magny-Cours, one node, allreduce",
                    "dissemination is almost always the worst of tree, tiled and dissemination (only better than tiled "
                    "for small vectors)",
                    [](Experiment& e) {
                        Outcome outcome;
                        int worst = 0, total = 0;
                        for (const std::string machine : {"westmere", "magnycours"}) {
                            const Sweep result = sweep(e, on(machine), {algorithm("tree"), algorithm("tiled"),
                                                                        algorithm("dissemination")}, doubling(512, 4 << 20));
                            int here = 0;
                            for (std::size_t i = 0; i < result.sizes.size(); ++i) {
                                const double d = result.ns.at("dissemination")[i];
                                here += d >= result.ns.at("tree")[i] && d >= result.ns.at("tiled")[i];
                            }
                            worst += here;
                            total += static_cast<int>(result.sizes.size());
                            outcome.numacoll += fmt::format("{}{}: worst at {} of {} sizes", outcome.numacoll.empty() ? "" : "; ",
                                                            machine, here, result.sizes.size());
                            if (machine == "westmere")
                                outcome.figures.push_back({"hpdc13-fig14-westmere-allreduce", "Allreduce algorithms on Westmere",
                                                           "bytes", "time (us)", true, true, result.series_us(), {}});
                        }
                        outcome.command = sim_command(on("westmere"), doubling(512, 4 << 20), {"tree", "tiled", "dissemination"});
                        outcome.verdict = worst * 4 >= total * 3 ? Verdict::reproduced : worst * 2 > total ? Verdict::qualitative
                                                                                                         : Verdict::not_reproduced;
                        outcome.why = "'almost always' read as at three sizes in four or more";
                        return outcome;
                    }});
    list.push_back({"hpdc13-dissemination-16-nodes", "HPDC'13 3.6, Figure 21", "16 Westmere nodes, 192 threads, allreduce",
                    "on 16 nodes too, dissemination is the worst",
                    [](Experiment& e) {
                        Setting base = on("westmere");
                        base.nodes = 16;
                        const Sweep result = sweep(e, base, {algorithm("tree"), algorithm("tiled"), algorithm("dissemination")},
                                                   {8, 1024, 16 << 10, 128 << 10, 1 << 20});
                        int worst = 0;
                        for (std::size_t i = 0; i < result.sizes.size(); ++i) {
                            const double d = result.ns.at("dissemination")[i];
                            worst += d >= result.ns.at("tree")[i] && d >= result.ns.at("tiled")[i];
                        }
                        const int n = static_cast<int>(result.sizes.size());
                        Outcome outcome;
                        outcome.numacoll = fmt::format("dissemination is the worst at {} of {} sizes (8 B: {:.1f} us against "
                                                       "tree's {:.1f} us)", worst, n, result.ns.at("dissemination")[0] / 1000,
                                                       result.ns.at("tree")[0] / 1000);
                        outcome.command = sim_command(base, result.sizes, {"tree", "tiled", "dissemination"});
                        outcome.verdict = worst == n ? Verdict::reproduced : worst * 2 > n ? Verdict::qualitative
                                                                                          : Verdict::not_reproduced;
                        outcome.why = "every size the paper plots";
                        outcome.figures.push_back({"hpdc13-fig21-16-nodes", "Allreduce on 16 Westmere nodes (192 threads)",
                                                   "bytes", "time (us)", true, true, result.series_us(), {}});
                        return outcome;
                    }});
    list.push_back({"hpdc13-barrier-scaling", "HPDC'13 3.6, Figure 25", "Westmere cluster, 12 to 192 threads, barrier",
                    "the thread-based barrier scales well with cores (better than MVAPICH2's)",
                    [](Experiment& e) {
                        Series series{"tree barrier", {}, {}};
                        std::vector<double> times;
                        for (int nodes : {1, 2, 4, 8, 16}) {
                            Setting setting = on("westmere", C::barrier);
                            setting.bytes = 0;
                            setting.nodes = nodes;
                            times.push_back(e.time_ns(setting));
                            series.x.push_back(12.0 * nodes);
                            series.y.push_back(times.back() / 1000);
                        }
                        // Logarithmic growth: each doubling of nodes adds about the same time.
                        const double first_step = times[2] - times[1], last_step = times[4] - times[3];
                        Outcome outcome;
                        outcome.numacoll = fmt::format("{:.2f}, {:.2f}, {:.2f}, {:.2f}, {:.2f} us on 12 to 192 cores; each "
                                                       "doubling of nodes adds {:.2f} to {:.2f} us",
                                                       times[0] / 1000, times[1] / 1000, times[2] / 1000, times[3] / 1000,
                                                       times[4] / 1000, first_step / 1000, last_step / 1000);
                        Setting setting = on("westmere", C::barrier);
                        setting.bytes = 0;
                        setting.nodes = 16;
                        outcome.command = sim_command(setting, {0});
                        outcome.verdict = last_step < 1.5 * first_step ? Verdict::qualitative : Verdict::not_reproduced;
                        outcome.why = "the time grows with the logarithm of the node count; the comparison with MVAPICH2 "
                                      "needs a model of MVAPICH2's barrier, which numacoll does not have, so this is at "
                                      "most qualitative";
                        outcome.figures.push_back({"hpdc13-fig25-barrier", "Barrier on 1 to 16 Westmere nodes", "cores",
                                                   "time (us)", true, false, {series}, {}});
                        return outcome;
                    }});
    return list;
}

}  // namespace numacoll::reproduce
