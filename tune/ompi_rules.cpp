#include "tune/ompi_rules.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

#include "algorithms/registry.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "exec/ompi_tuned.hpp"

namespace numacoll::tune {

namespace {

const exec::OmpiTunedAlgorithm* ompi_counterpart(sched::Collective collective, const std::string& algorithm) {
    for (const auto& entry : exec::ompi_tuned_algorithms())
        if (entry.collective == collective && entry.name == algorithm) return &entry;
    return nullptr;
}

// The option's value as the candidate has it, else the algorithm's default.
std::string option_value(sched::Collective collective, const Candidate& candidate, const std::string& name) {
    if (const auto it = candidate.options.find(name); it != candidate.options.end()) return it->second;
    for (const auto& option : algo::find_algorithm(collective, candidate.algorithm).options)
        if (option.name == name) return option.default_value;
    return "";
}

OmpiChoice choice_of(sched::Collective collective, const Candidate& candidate, std::uint64_t bytes, int ranks,
                     double time_ns) {
    const exec::OmpiTunedAlgorithm& entry = *ompi_counterpart(collective, candidate.algorithm);
    OmpiChoice choice;
    choice.message_bytes = ompi_message_bytes(collective, bytes, ranks);
    choice.numacoll_bytes = bytes;
    choice.algorithm = candidate.algorithm;
    choice.mca_name = entry.mca_value;
    choice.id = entry.id;
    const std::string segment = option_value(collective, candidate, "segment");
    choice.segment_bytes = segment.empty() ? 0 : parse_byte_size(segment, "segment");
    const std::string fanout = option_value(collective, candidate, "fanout");
    choice.faninout = fanout.empty() ? 0 : std::stoi(fanout);
    choice.time_ns = time_ns;
    return choice;
}

// For the classic format: one shape per communicator size, the one over the most nodes.
std::vector<const OmpiCommRule*> one_per_size(const std::vector<OmpiCommRule>& rules, sched::Collective collective) {
    std::map<int, const OmpiCommRule*> by_size;
    for (const OmpiCommRule& rule : rules) {
        if (rule.collective != collective) continue;
        auto& kept = by_size[rule.ranks];
        if (kept == nullptr || rule.nodes > kept->nodes) kept = &rule;
    }
    std::vector<const OmpiCommRule*> out;
    for (const auto& [size, rule] : by_size) out.push_back(rule);
    return out;
}

std::vector<sched::Collective> collectives_of(const std::vector<OmpiCommRule>& rules) {
    std::vector<sched::Collective> out;
    for (const OmpiCommRule& rule : rules)
        if (std::find(out.begin(), out.end(), rule.collective) == out.end()) out.push_back(rule.collective);
    return out;
}

}  // namespace

std::uint64_t ompi_message_bytes(sched::Collective collective, std::uint64_t bytes, int ranks) {
    switch (collective) {
        case sched::Collective::gather:
        case sched::Collective::scatter:
        case sched::Collective::allgather:
        case sched::Collective::reduce_scatter:
        case sched::Collective::alltoall: return bytes * static_cast<std::uint64_t>(ranks);
        case sched::Collective::barrier: return 0;
        default: return bytes;
    }
}

int ompi_collective_id(sched::Collective collective) {
    switch (collective) {
        case sched::Collective::allgather: return 0;
        case sched::Collective::allreduce: return 2;
        case sched::Collective::alltoall: return 3;
        case sched::Collective::barrier: return 6;
        case sched::Collective::bcast: return 7;
        case sched::Collective::gather: return 9;
        case sched::Collective::reduce: return 11;
        case sched::Collective::reduce_scatter: return 12;
        case sched::Collective::scatter: return 15;
        case sched::Collective::pingpong: break;
    }
    throw UsageError(fmt::format("Open MPI has no collective for {}", sched::to_string(collective)));
}

bool ompi_expressible(sched::Collective collective, const Candidate& candidate) {
    if (collective == sched::Collective::pingpong || ompi_counterpart(collective, candidate.algorithm) == nullptr)
        return false;
    const algo::AlgorithmInfo& info = algo::find_algorithm(collective, candidate.algorithm);
    if (info.ranks != sched::RankKind::process) return false;
    for (const auto& option : info.options) {
        const std::string value = option_value(collective, candidate, option.name);
        if (option.name == "segment" || option.name == "fanout") continue;
        if (option.name == "leader" && value == "rank-order") continue;  // Open MPI's own chain order
        if (option.name == "radix" && value == "4") continue;  // coll_tuned_bcast_knomial_radix's default
        // The classic file carries no request limit: Open MPI then posts them all.
        if (option.name == "requests" && value == "0") continue;
        return false;
    }
    return true;
}

std::vector<std::string> collectives_without_rules(const std::vector<TunePoint>& points,
                                                   const std::vector<OmpiCommRule>& rules) {
    std::vector<sched::Collective> swept;
    for (const TunePoint& point : points)
        if (std::find(swept.begin(), swept.end(), point.collective) == swept.end()) swept.push_back(point.collective);
    std::vector<std::string> lines;
    for (sched::Collective collective : swept) {
        const std::string name = sched::to_string(collective);
        if (std::any_of(rules.begin(), rules.end(), [&](const OmpiCommRule& r) { return r.collective == collective; }))
            continue;
        if (collective == sched::Collective::pingpong) {
            lines.push_back(name + ": not a collective of Open MPI's coll/tuned");
            continue;
        }
        std::vector<std::string> timed, counterparts, expressible;
        bool any_time = false;
        for (const TunePoint& point : points) {
            if (point.collective != collective) continue;
            for (const CandidateTime& entry : point.times) {
                const std::string& algorithm = entry.candidate.algorithm;
                if (std::find(timed.begin(), timed.end(), algorithm) == timed.end()) timed.push_back(algorithm);
                if (ompi_counterpart(collective, algorithm) == nullptr) continue;
                if (std::find(counterparts.begin(), counterparts.end(), algorithm) == counterparts.end())
                    counterparts.push_back(algorithm);
                if (!ompi_expressible(collective, entry.candidate)) continue;
                expressible.push_back(algorithm);
                any_time = any_time || entry.time_ns.has_value();
            }
        }
        std::string open_mpi_names;
        for (const auto& entry : exec::ompi_tuned_algorithms())
            if (entry.collective == collective &&
                std::any_of(algo::algorithm_registry().begin(), algo::algorithm_registry().end(),
                            [&](const algo::AlgorithmInfo& info) {
                                return info.collective == collective && info.name == entry.name;
                            }))
                open_mpi_names += (open_mpi_names.empty() ? "" : ", ") + entry.name;
        const auto joined = [](const std::vector<std::string>& names) {
            std::string text;
            for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
            return text;
        };
        if (counterparts.empty())
            lines.push_back(fmt::format("{}: none of the algorithms timed ({}) is one of Open MPI's; time one of {}",
                                        name, joined(timed), open_mpi_names.empty() ? "none" : open_mpi_names));
        else if (expressible.empty())
            lines.push_back(fmt::format("{}: Open MPI cannot run {} with the options timed (threads, a hierarchy, or a "
                                        "leader other than rank order)",
                                        name, joined(counterparts)));
        else if (!any_time)
            lines.push_back(fmt::format("{}: none of Open MPI's algorithms could be timed here", name));
    }
    return lines;
}

std::vector<OmpiCommRule> ompi_rules(const std::vector<TunePoint>& points) {
    std::vector<OmpiCommRule> rules;
    for (const TunePoint& point : points) {
        if (point.collective == sched::Collective::pingpong) continue;
        const CandidateTime* best = nullptr;
        for (const CandidateTime& entry : point.times)
            if (entry.time_ns && ompi_expressible(point.collective, entry.candidate) &&
                (best == nullptr || *entry.time_ns < *best->time_ns))
                best = &entry;
        if (best == nullptr) continue;
        auto rule = std::find_if(rules.begin(), rules.end(), [&](const OmpiCommRule& r) {
            return r.collective == point.collective && r.nodes == point.nodes && r.ranks_per_node == point.ranks_per_node;
        });
        if (rule == rules.end()) {
            rules.push_back({point.collective, point.ranks(), point.nodes, point.ranks_per_node, {}});
            rule = rules.end() - 1;
        }
        OmpiChoice choice = choice_of(point.collective, best->candidate, point.bytes, point.ranks(), *best->time_ns);
        if (!rule->choices.empty() && rule->choices.back() == choice) continue;
        if (rule->choices.empty()) choice.message_bytes = 0;  // Open MPI wants the first rule at 0
        rule->choices.push_back(choice);
    }
    for (OmpiCommRule& rule : rules)
        std::stable_sort(rule.choices.begin(), rule.choices.end(),
                         [](const OmpiChoice& a, const OmpiChoice& b) { return a.message_bytes < b.message_bytes; });
    return rules;
}

std::string ompi_classic_rules(const std::vector<OmpiCommRule>& rules, bool version_line,
                               const std::vector<std::string>& comments) {
    // The version line must open the file: Open MPI 5 looks for it with one fscanf.
    std::string out = version_line ? "rule-file-version-2\n" : "";
    for (const std::string& comment : comments) out += "# " + comment + "\n";
    const std::vector<sched::Collective> collectives = collectives_of(rules);
    out += fmt::format("{:<12}# collectives\n", collectives.size());
    for (sched::Collective collective : collectives) {
        const auto sizes = one_per_size(rules, collective);
        out += fmt::format("{:<12}# {}\n", ompi_collective_id(collective), sched::to_string(collective));
        out += fmt::format("{:<12}# communicator sizes\n", sizes.size());
        for (const OmpiCommRule* rule : sizes) {
            out += fmt::format("{:<12}# from {} ranks ({} node(s) x {})\n", rule->ranks, rule->ranks, rule->nodes,
                               rule->ranks_per_node);
            out += fmt::format("{:<12}# message sizes\n", rule->choices.size());
            for (const OmpiChoice& choice : rule->choices) {
                const std::string line = fmt::format("{} {} {} {}", choice.message_bytes, choice.id, choice.faninout,
                                                     choice.segment_bytes);
                out += fmt::format("{:<32}# {}, chosen at {} B per rank ({:.1f} us)\n", line, choice.algorithm,
                                   choice.numacoll_bytes, choice.time_ns / 1000.0);
            }
        }
    }
    return out;
}

std::string ompi_json_rules(const std::vector<OmpiCommRule>& rules, const std::map<std::string, std::string>& about) {
    nlohmann::ordered_json root;
    root["numacoll"] = about;  // Open MPI reads only "collectives"
    nlohmann::ordered_json collectives = nlohmann::ordered_json::object();
    for (sched::Collective collective : collectives_of(rules)) {
        // Per distribution, ascending sizes; single-node first: Open MPI takes the first rule that matches.
        std::vector<const OmpiCommRule*> ordered;
        for (const OmpiCommRule& rule : rules)
            if (rule.collective == collective) ordered.push_back(&rule);
        const auto distribution = [](const OmpiCommRule* rule) {
            return rule->nodes == 1 ? std::string("single-node")
                                    : rule->ranks_per_node == 1 ? std::string("one-per-node") : std::string("any");
        };
        const auto rank_of = [&](const OmpiCommRule* rule) {
            const std::string d = distribution(rule);
            return d == "single-node" ? 0 : d == "one-per-node" ? 1 : 2;
        };
        std::stable_sort(ordered.begin(), ordered.end(), [&](const OmpiCommRule* a, const OmpiCommRule* b) {
            return std::pair{rank_of(a), a->ranks} < std::pair{rank_of(b), b->ranks};
        });
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < ordered.size(); ++i) {
            const OmpiCommRule* rule = ordered[i];
            nlohmann::ordered_json entry;
            entry["comm_size_min"] = rule->ranks;
            // Up to the next size of the same distribution; the last is open.
            if (i + 1 < ordered.size() && rank_of(ordered[i + 1]) == rank_of(rule) && ordered[i + 1]->ranks > rule->ranks)
                entry["comm_size_max"] = ordered[i + 1]->ranks - 1;
            entry["comm_rank_distribution"] = distribution(rule);
            nlohmann::ordered_json messages = nlohmann::ordered_json::array();
            for (std::size_t c = 0; c < rule->choices.size(); ++c) {
                const OmpiChoice& choice = rule->choices[c];
                nlohmann::ordered_json item;
                item["msg_size_min"] = choice.message_bytes;
                if (c + 1 < rule->choices.size()) item["msg_size_max"] = rule->choices[c + 1].message_bytes - 1;
                item["alg"] = choice.mca_name;
                item["faninout"] = choice.faninout;
                item["seg_size"] = choice.segment_bytes;
                messages.push_back(std::move(item));
            }
            entry["rules"] = std::move(messages);
            list.push_back(std::move(entry));
        }
        collectives[sched::to_string(collective)] = std::move(list);
    }
    root["collectives"] = std::move(collectives);
    return root.dump(2) + "\n";
}

}  // namespace numacoll::tune
