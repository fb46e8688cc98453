// numacoll mpi-report: what libnumacoll_mpi's report (NUMACOLL_MPI_REPORT)
// says about an application's collectives: where their time went, per
// communicator and collective, served by numacoll or handed back and why;
// and, with the schedules the library saved (NUMACOLL_MPI_SCHEDULES), what
// the simulator predicts for each served call beside the median the
// application measured, so that its real calls check the model and go on
// to other machines (numacoll sim --from, validate --from, whatif).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/text_file.hpp"
#include "costs/params.hpp"
#include "results/mpi_report.hpp"
#include "schedule/schedule_io.hpp"
#include "sim/engine.hpp"
#include "sim/platform_model.hpp"
#include "tune/selection_table.hpp"

namespace numacoll::cli {

namespace {

struct MpiReportOptions {
    std::string report;
    std::string schedules;
    std::string topology = "live";
    std::string params;
    std::string output;
};

}  // namespace

CommandRun add_mpi_report_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "mpi-report", "summarise libnumacoll_mpi's report of an application's collectives, and simulate its calls");
    auto options = std::make_shared<MpiReportOptions>();
    command->add_option("report", options->report, "the report (NUMACOLL_MPI_REPORT's file)")->required();
    command->add_option("--schedules", options->schedules,
                        "the folder of schedules the library saved (NUMACOLL_MPI_SCHEDULES): each is simulated beside "
                        "the application's median");
    command->add_option("--topology,-t", options->topology,
                        "the machine to simulate the schedules on (the application's: live)")
        ->capture_default_str();
    command->add_option("--params", options->params,
                        "cost parameters: a bundled name or a JSON file (from calibrate); default: the machine's own, "
                        "else generic");
    command->add_option("-o,--output", options->output, "the comparison as CSV (with --schedules)");
    add_quiet_flag(*command);
    command->footer(
        "Example:\n"
        "  mpirun -np 4 -x LD_PRELOAD=.../libnumacoll_mpi_openmpi.so -x NUMACOLL_MPI_REPORT=r.csv \\\n"
        "         -x NUMACOLL_MPI_SCHEDULES=s ./app\n"
        "  numacoll calibrate -o here.json && numacoll mpi-report r.csv --schedules s --params here.json");

    return [options] {
        namespace fs = std::filesystem;
        if (!options->output.empty() && options->schedules.empty())
            throw UsageError("--output writes the comparison with the simulator: give --schedules too");
        if (!options->schedules.empty() && !fs::is_directory(options->schedules))
            throw UsageError(fmt::format("--schedules '{}' is not a folder (NUMACOLL_MPI_SCHEDULES's)", options->schedules));
        const std::vector<results::MpiReportRow> rows = results::read_mpi_report(
            read_text_file(options->report, "report", input_cap_bytes(std::uint64_t{256} << 20)),
            fmt::format("'{}'", options->report));
        // Where the time went: per communicator and collective.
        struct Total {
            std::uint64_t calls = 0, served = 0;
            double ns = 0;
            std::map<std::string, std::uint64_t> reasons;
        };
        std::map<std::pair<std::string, std::string>, Total> totals;
        double all_ns = 0;
        std::uint64_t all_calls = 0;
        for (const results::MpiReportRow& row : rows) {
            Total& total = totals[{row.communicator, row.collective}];
            total.calls += row.calls;
            total.ns += row.total_ns;
            all_ns += row.total_ns;
            all_calls += row.calls;
            if (row.algorithm != tune::native_algorithm)
                total.served += row.calls;
            else
                total.reasons[row.reason] += row.calls;
        }
        std::vector<std::pair<std::pair<std::string, std::string>, Total>> ordered(totals.begin(), totals.end());
        std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
        std::cout << fmt::format("{} calls, {:.3f} ms in collectives (each communicator's rank 0):\n", all_calls,
                                 all_ns / 1e6);
        for (const auto& [key, total] : ordered) {
            std::string back;
            for (const auto& [reason, calls] : total.reasons) back += fmt::format("; {} handed back ({})", calls, reason);
            std::cout << fmt::format("  {:<18} {:<10} {:>9} calls {:>12.3f} ms {:>5.1f}%  {} served by numacoll{}\n",
                                     key.first, key.second, total.calls, total.ns / 1e6,
                                     all_ns > 0 ? 100.0 * total.ns / all_ns : 0.0, total.served, back);
        }
        if (options->schedules.empty()) return 0;

        // The saved schedules, simulated, beside the application's medians.
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(options->schedules))
            if (entry.path().extension() == ".schedule") files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) throw UsageError(fmt::format("no .schedule file in '{}'", options->schedules));
        const auto machine = std::make_shared<const topo::Machine>(topo::load_machine(options->topology));
        const costs::Params params = costs::params_for(*machine, options->params);
        announce_generic_params(params, *machine, "mpi-report", false);
        std::string csv = "collective,algorithm,datatype,bytes,ranks,nodes,calls,measured_median_ns,simulated_ns,error\n";
        std::cout << fmt::format("simulated on {} with params {}:\n", machine->label(),
                                 params.origin);
        std::cout << fmt::format("  {:<10} {:<14} {:<8} {:>9} {:>5} {:>7} {:>14} {:>14} {:>8}\n", "collective", "algorithm",
                                 "datatype", "bytes", "ranks", "calls", "median ns", "simulated ns", "error");
        for (const fs::path& file : files) {
            const sched::Schedule schedule = load_schedule(file.string());
            const sched::CollectiveSpec& spec = schedule.spec;
            const std::string datatype = results::report_datatype(spec.collective, spec.datatype);
            const results::MpiReportRow* match = nullptr;
            for (const results::MpiReportRow& row : rows)
                if (row.collective == sched::to_string(spec.collective) && row.algorithm == spec.algorithm &&
                    row.datatype == datatype && row.bucket_bytes == results::size_bucket(spec.bytes) &&
                    row.ranks == schedule.rank_count() && row.reason.empty() &&
                    (match == nullptr || row.calls > match->calls))
                    match = &row;
            const sim::PlatformModel platform(machine, params, schedule.nodes);
            const double simulated = sim::simulate(schedule, platform).timeline.makespan_ns;
            const std::string error =
                match && match->median_ns > 0 ? fmt::format("{:+.0f}%", 100.0 * (simulated / match->median_ns - 1)) : "";
            std::cout << fmt::format("  {:<10} {:<14} {:<8} {:>9} {:>5} {:>7} {:>14} {:>14.0f} {:>8}\n",
                                     sched::to_string(spec.collective), spec.algorithm, datatype, spec.bytes,
                                     schedule.rank_count(), match ? std::to_string(match->calls) : "-",
                                     match ? fmt::format("{:.0f}", match->median_ns) : "-", simulated, error);
            csv += fmt::format("{},{},{},{},{},{},{},{},{:.1f},{}\n", sched::to_string(spec.collective), spec.algorithm,
                               datatype, spec.bytes, schedule.rank_count(), schedule.nodes,
                               match ? std::to_string(match->calls) : "",
                               match ? fmt::format("{:.0f}", match->median_ns) : "", simulated,
                               match && match->median_ns > 0 ? fmt::format("{:.4f}", simulated / match->median_ns - 1)
                                                             : "");
        }
        if (!options->output.empty()) write_output_file(options->output, csv);
        return 0;
    };
}

}  // namespace numacoll::cli
