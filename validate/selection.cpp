#include "validate/selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/byte_size.hpp"

namespace numacoll::validate {

namespace {

using BySize = std::map<std::uint64_t, std::map<std::string, const ValidationPoint*>>;

template <typename Time>
std::optional<std::string> fastest(const std::map<std::string, const ValidationPoint*>& at, Time time) {
    std::optional<std::string> best;
    double best_ns = 0;
    for (const auto& [algorithm, point] : at) {
        const std::optional<double> ns = time(*point);
        if (!ns) return std::nullopt;
        if (!best || *ns < best_ns) best = algorithm, best_ns = *ns;
    }
    return best;
}

bool within_spread(const std::map<std::string, const ValidationPoint*>& at, const std::string& best,
                   const std::string& pick) {
    if (pick == best) return true;
    const ValidationPoint& fastest_point = *at.at(best);
    const double p90 = fastest_point.measured.spread ? fastest_point.measured.spread->p90_ns : fastest_point.measured.time_ns;
    return at.at(pick)->measured.time_ns <= p90;
}

template <typename Time>
std::vector<std::string> crossings(const BySize& sizes, const std::string& a, const std::string& b, Time time,
                                   bool* known) {
    std::vector<std::string> out;
    std::optional<bool> previous;
    std::uint64_t previous_bytes = 0;
    for (const auto& [bytes, at] : sizes) {
        const std::optional<double> ta = time(*at.at(a)), tb = time(*at.at(b));
        if (!ta || !tb) {
            *known = false;
            return {};
        }
        const bool a_faster = *ta < *tb;
        if (previous && *previous != a_faster)
            out.push_back(fmt::format("between {} and {} ({} becomes faster)", format_bytes(previous_bytes),
                                      format_bytes(bytes), a_faster ? a : b));
        previous = a_faster;
        previous_bytes = bytes;
    }
    return out;
}

}  // namespace

std::vector<CollectiveSelection> select_algorithms(const std::vector<ValidationPoint>& points) {
    std::map<std::string, std::vector<const ValidationPoint*>> by_collective;
    for (const auto& p : points) by_collective[p.measured.collective].push_back(&p);
    std::vector<CollectiveSelection> selections;
    const auto measured = [](const ValidationPoint& p) { return std::optional<double>(p.measured.time_ns); };
    const auto simulated = [](const ValidationPoint& p) { return std::optional<double>(p.simulated.time_ns); };
    const auto model = [](const ValidationPoint& p) { return p.model_ns; };
    for (const auto& [collective, list] : by_collective) {
        CollectiveSelection selection;
        selection.collective = collective;
        for (const auto* p : list)
            if (std::find(selection.algorithms.begin(), selection.algorithms.end(), p->measured.algorithm) ==
                selection.algorithms.end())
                selection.algorithms.push_back(p->measured.algorithm);
        BySize sizes;
        for (const auto* p : list) sizes[p->measured.bytes][p->measured.algorithm] = p;
        std::erase_if(sizes, [&](const auto& entry) { return entry.second.size() != selection.algorithms.size(); });
        int simulated_hits = 0, model_hits = 0, model_sizes = 0;
        for (const auto& [bytes, at] : sizes) {
            SizeChoice choice;
            choice.bytes = bytes;
            choice.measured = *fastest(at, measured);
            choice.simulated = *fastest(at, simulated);
            choice.model = fastest(at, model);
            choice.simulated_agrees = within_spread(at, choice.measured, choice.simulated);
            simulated_hits += choice.simulated_agrees;
            if (choice.model) {
                choice.model_agrees = within_spread(at, choice.measured, *choice.model);
                model_hits += *choice.model_agrees;
                ++model_sizes;
            }
            selection.sizes.push_back(choice);
        }
        if (!sizes.empty()) selection.simulated_agreement = static_cast<double>(simulated_hits) / static_cast<double>(sizes.size());
        if (model_sizes > 0) selection.model_agreement = static_cast<double>(model_hits) / model_sizes;
        for (std::size_t i = 0; i < selection.algorithms.size(); ++i)
            for (std::size_t j = i + 1; j < selection.algorithms.size(); ++j) {
                Crossover crossover;
                crossover.first = selection.algorithms[i];
                crossover.second = selection.algorithms[j];
                bool always = true;
                crossover.measured = crossings(sizes, crossover.first, crossover.second, measured, &always);
                crossover.simulated = crossings(sizes, crossover.first, crossover.second, simulated, &always);
                crossover.modelled_known = true;
                crossover.modelled = crossings(sizes, crossover.first, crossover.second, model, &crossover.modelled_known);
                selection.crossovers.push_back(crossover);
            }
        selections.push_back(std::move(selection));
    }
    return selections;
}

std::string selection_text(const std::vector<CollectiveSelection>& selections) {
    std::string out;
    for (const auto& s : selections) {
        if (s.algorithms.size() < 2 || s.sizes.empty()) continue;
        out += fmt::format("{}: which algorithm is fastest ({} sizes)\n", s.collective, s.sizes.size());
        // The headline counts what the table shows: the same pick, a tie, a miss.
        const auto headline = [&](const char* who, const auto& pick, const auto& agrees) {
            int same = 0, tied = 0, sizes = 0;
            for (const auto& c : s.sizes) {
                if (!pick(c)) continue;
                ++sizes;
                same += *pick(c) == c.measured;
                tied += *pick(c) != c.measured && *agrees(c);
            }
            return fmt::format("  {} picks the measured best at {} of {} sizes, and an algorithm the measurement cannot "
                               "tell from it (tie) at {} more: {:.0f}% with the ties\n",
                               who, same, sizes, tied, sizes == 0 ? 0.0 : 100.0 * (same + tied) / sizes);
        };
        const auto simulated_pick = [](const SizeChoice& c) { return std::optional<std::string>(c.simulated); };
        const auto simulated_agrees = [](const SizeChoice& c) { return std::optional<bool>(c.simulated_agrees); };
        const auto model_pick = [](const SizeChoice& c) { return c.model; };
        const auto model_agrees = [](const SizeChoice& c) { return c.model_agrees; };
        out += headline("simulation", simulated_pick, simulated_agrees);
        out += s.model_agreement ? headline("model", model_pick, model_agrees)
                                 : std::string("  model: not every algorithm has a closed form here\n");
        const auto marked = [](const std::string& pick, const std::string& measured, bool agrees) {
            return pick + (pick == measured ? "" : agrees ? " (tie)" : " (x)");
        };
        out += fmt::format("  {:>8}  {:<20} {:<26} {:<26}\n", "size", "measured", "simulated", "model");
        for (const auto& c : s.sizes)
            out += fmt::format("  {:>8}  {:<20} {:<26} {:<26}\n", format_bytes(c.bytes), c.measured,
                               marked(c.simulated, c.measured, c.simulated_agrees),
                               c.model ? marked(*c.model, c.measured, *c.model_agrees) : "-");
        out += "  (tie): another algorithm, whose measured median lies within the measured best's p10-p90 spread;\n"
               "  (x): an algorithm measured slower than that.\n";
        out += "  crossovers:\n";
        const auto list = [](const std::vector<std::string>& crossings) {
            if (crossings.empty()) return std::string("none");
            std::string text;
            for (const auto& crossing : crossings) text += (text.empty() ? "" : "; ") + crossing;
            return text;
        };
        for (const auto& c : s.crossovers) {
            out += fmt::format("    {} vs {}\n", c.first, c.second);
            out += fmt::format("      measured:  {}\n      simulated: {}\n      modelled:  {}\n", list(c.measured),
                               list(c.simulated), c.modelled_known ? list(c.modelled) : "no closed form");
        }
        out += "\n";
    }
    return out;
}

}  // namespace numacoll::validate
