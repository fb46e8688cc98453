// numacoll dag: generate (or read back) a collective's schedule, write it as
// text, JSON or DOT, and prove it with the symbolic checker.
#include <fmt/format.h>

#include <iostream>
#include <optional>
#include <sstream>

#include "algorithms/registry.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/text_file.hpp"
#include "costs/params.hpp"
#include "schedule/schedule_io.hpp"
#include "schedule/sequence.hpp"
#include "schedule/symbolic_checker.hpp"
#include "schedule/validate_schedule.hpp"
#include "sim/locality_stats.hpp"

namespace numacoll::cli {

namespace {

struct DagOptions {
    MachineOptions machine;
    AlgorithmOptions algorithm;
    std::string bytes = "64";
    std::string format = "text";
    std::string output = "-";
    std::string from;
    bool check = false;
    bool stats = false;
    bool list = false;
};

// Every algorithm, or those of one collective (`collective` not empty).
std::string algorithm_list(const std::string& collective) {
    const std::optional<sched::Collective> only =
        collective.empty() ? std::nullopt : std::optional<sched::Collective>(sched::parse_collective(collective));
    std::string out;
    for (const auto& info : algo::algorithm_registry()) {
        if (only && info.collective != *only) continue;
        out += fmt::format("{:<10} {:<14} {}\n", sched::to_string(info.collective), info.name + " ", info.summary);
        out += fmt::format("{:<25} source: {}\n", "", info.source);
        for (const auto& option : info.options)
            out += fmt::format("{:<25} {} (default {}): {}\n", "", option_syntax(option.name), option.default_value,
                               option.help);
    }
    return out;
}

// `machine` (null for a schedule read back, whose NUMA nodes then group the
// DOT picture) gives the picture its LLC domains.
std::string render(const sched::Schedule& schedule, const std::string& format, const topo::Machine* machine) {
    if (format == "text") return sched::to_text(schedule);
    if (format == "json") return sched::to_json(schedule);
    return sched::to_dot(schedule, machine ? llc_domains_of_ranks(schedule, *machine) : std::vector<int>{});
}

// A file of several collectives writes back as it was read (text one after
// another, JSON as a list); DOT draws them joined.
std::string render_parts(const std::vector<sched::Schedule>& parts, const sched::Schedule& joined,
                         const std::string& format) {
    if (format == "dot") return sched::to_dot(joined);
    std::string out = format == "json" ? "[\n" : "";
    for (std::size_t p = 0; p < parts.size(); ++p) {
        if (format == "json" && p > 0) out += ",\n";
        out += render(parts[p], format, nullptr);
    }
    return format == "json" ? out + "]\n" : out;
}

// Each collective of a sequence is proven on its own; the joined schedule
// only needs to be sound (joining adds order between parts that share no
// bytes). Returns the exit code.
int check_parts(const std::vector<sched::Schedule>& parts, const sched::Schedule& joined, std::ostream& report_stream) {
    std::string first_problem;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const sched::Schedule& part = parts[p];
        const sched::CheckReport report = sched::check_schedule(part);
        const std::string what = fmt::format("{} of {}: {} {} of {} on {} ranks ({} node(s)), {} tasks", p + 1,
                                             parts.size(), sched::to_string(part.spec.collective), part.spec.algorithm,
                                             format_bytes(part.spec.bytes), part.rank_count(), part.nodes,
                                             part.task_count());
        if (report.holds) {
            report_stream << fmt::format("check holds: {}; {} outputs proven\n", what, report.outputs_checked);
            continue;
        }
        report_stream << fmt::format("check FAILS: {}\n", what);
        for (const auto& problem : report.problems) report_stream << "  " << problem << "\n";
        if (first_problem.empty()) first_problem = fmt::format("collective {}: {}", p + 1, report.problems.front());
    }
    const std::vector<std::string> joined_problems = sched::find_schedule_problems(joined);
    if (joined_problems.empty()) {
        report_stream << fmt::format("check holds: the {} collectives in a row, {} tasks\n", parts.size(),
                                     joined.task_count());
    } else {
        report_stream << fmt::format("check FAILS: the {} collectives in a row\n", parts.size());
        for (const auto& problem : joined_problems) report_stream << "  " << problem << "\n";
        if (first_problem.empty()) first_problem = "the collectives in a row: " + joined_problems.front();
    }
    if (first_problem.empty()) return 0;
    std::cerr << fmt::format("numacoll: the schedule does not hold: {}\n", first_problem);
    return 1;
}

}  // namespace

CommandRun add_dag_command(CLI::App& app) {
    auto* command = app.add_subcommand("dag", "generate a collective's task DAG, export it, and prove it correct");
    auto options = std::make_shared<DagOptions>();
    options->machine.add_to(*command, "westmere", true);
    options->algorithm.add_to(*command, false, true);
    command->add_option("--bytes,-b", options->bytes, "vector size per rank, e.g. 64, 4KiB, 16MiB")->capture_default_str();
    command->add_option("--format,-f", options->format, "text, json or dot")
        ->check(CLI::IsMember({"text", "json", "dot"}))
        ->capture_default_str();
    command->add_option("--output,-o", options->output, "output file, - for standard output")->capture_default_str();
    command->add_option("--from", options->from,
                        "read a schedule (text or JSON) instead of generating one; a file of several collectives "
                        "run one after another is checked collective by collective");
    command->add_flag("--check", options->check,
                      "prove the DAG with the symbolic checker and print the verdict (exit 1 if it does not hold)");
    command->add_flag("--stats", options->stats,
                      "print task counts, bytes moved per locality class (same core/cache/LLC domain, other LLC "
                      "domain by hops, network), the critical path and tasks per thread, without simulating");
    add_quiet_flag(*command);
    command->add_flag("--list", options->list, "list the algorithms and their options (of --collective only, when given)");
    command->footer(
        "Examples:\n"
        "  numacoll dag --topology westmere --collective allreduce --algorithm tree --bytes 64\n"
        "  numacoll dag --topology magnycours --bcast 2stage --bytes 1MiB --check\n"
        "  numacoll dag --topology magnycours --algorithm tiled --bytes 1MiB --stats\n"
        "  numacoll dag --topology westmere --bytes 64 --format dot -o tree.dot && dot -Tpng tree.dot -o tree.png");

    return [options, command] {
        if (options->list) {
            std::cout << algorithm_list(command->count("--collective") > 0 ? options->algorithm.collective : "");
            return 0;
        }
        if (!options->from.empty()) refuse_generation_options_with_from(*command);
        if (options->stats && command->count("--format") > 0)
            throw UsageError("--stats reports on the schedule instead of writing it: --format has nothing to shape");
        // With --stats, -o receives the report; with --check alone, the
        // verdict goes to standard output and the schedule to -o when named.
        check_distinct_paths({{"-o", options->output, true}, {"--from", options->from, false}});
        std::optional<OutputFile> output;
        if (options->stats || !options->check || options->output != "-") output.emplace(options->output);
        std::ostringstream report_text;
        std::ostream& report_stream = options->stats ? static_cast<std::ostream&>(report_text) : std::cout;
        sched::Schedule schedule;
        std::vector<sched::Schedule> parts;  // a file of several collectives; `schedule` joins them
        std::shared_ptr<const topo::Machine> machine;
        if (!options->from.empty()) {
            parts = load_schedules(options->from);
            if (parts.size() == 1) {
                schedule = std::move(parts.front());
                parts.clear();
            } else {
                schedule = sched::sequence(parts);
            }
            // Its own machine, when it names one, classes its traffic.
            if (options->stats)
                machine = schedule.provenance.count("topology")
                              ? std::make_shared<const topo::Machine>(topo::load_machine(schedule.provenance.at("topology")))
                              : options->machine.load();
        } else {
            const sched::CollectiveSpec spec = options->algorithm.spec(parse_byte_size(options->bytes, "--bytes"));
            machine = options->machine.load();
            schedule = options->algorithm.in_rank_form(algo::generate_schedule(spec, options->machine.layout(machine)));
        }
        if (output && !options->stats) {
            output->write(parts.empty() ? render(schedule, options->format, options->from.empty() ? machine.get() : nullptr)
                                        : render_parts(parts, schedule, options->format));
            output->commit();
        }
        const auto finish_report = [&](int code) {
            if (options->stats) {
                output->write(report_text.str());
                output->commit();
            }
            return code;
        };
        if (!options->stats && !options->check) return 0;
        const std::string what =
            parts.empty() ? fmt::format("{} {} of {} on {} ranks ({} node(s))", sched::to_string(schedule.spec.collective),
                                        schedule.spec.algorithm, format_bytes(schedule.spec.bytes), schedule.rank_count(),
                                        schedule.nodes)
                          : fmt::format("{} in a row on {} ranks ({} node(s))", sched::describe_sequence(parts),
                                        schedule.rank_count(), schedule.nodes);
        if (options->stats) {
            const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), schedule.nodes);
            report_stream << fmt::format("{}, {}\n", what, machine->label())
                          << sim::format_stats(sim::schedule_stats(schedule, platform));
            if (!options->check) return finish_report(0);
        }
        if (!parts.empty()) return finish_report(check_parts(parts, schedule, report_stream));
        const sched::CheckReport report = sched::check_schedule(schedule);
        if (report.holds) {
            report_stream << fmt::format("check holds: {}, {} tasks; {} outputs proven\n", what, schedule.task_count(),
                                         report.outputs_checked);
            return finish_report(0);
        }
        report_stream << fmt::format("check FAILS: {}, {} tasks\n", what, schedule.task_count());
        for (const auto& problem : report.problems) report_stream << "  " << problem << "\n";
        finish_report(1);
        std::cerr << fmt::format("numacoll: the schedule does not hold: {}\n", report.problems.front());
        return 1;
    };
}

}  // namespace numacoll::cli
