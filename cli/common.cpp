#include "cli/common.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <utility>

#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"
#include "common/text_file.hpp"
#include "costs/core_levels.hpp"
#include "results/provenance.hpp"
#include "schedule/process_form.hpp"
#include "schedule/schedule_io.hpp"

namespace numacoll::cli {

void MachineOptions::add_to(CLI::App& command, const std::string& default_topology, bool with_layout,
                            const std::string& ranks_names) {
    topology = default_topology;
    command
        .add_option("--topology,-t", topology,
                    "machine: a bundled name (westmere, magnycours, opteron8218, haswell), a path to an hwloc XML file, "
                    "synthetic:\"Package:2 Core:4\", or live")
        ->capture_default_str();
    if (!with_layout) return;
    command.add_option("--nodes,-N", nodes, "number of identical nodes")->check(CLI::Range(1, max_nodes))->capture_default_str();
    command.add_option(ranks_names, ranks_per_node, "ranks (threads) per node; 0 = one per core")
        ->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    command.add_option("--placement", placement, "compact, scatter (round-robin over packages) or list")
        ->capture_default_str();
    command.add_option("--pus", pus, "explicit logical PU list for --placement list, e.g. 0,6,1,7")->delimiter(',');
    placement_given_ = [&command] { return command.count("--placement") > 0; };
}

std::shared_ptr<const topo::Machine> MachineOptions::load() const {
    return std::make_shared<const topo::Machine>(topo::load_machine(topology));
}

algo::Layout MachineOptions::layout(std::shared_ptr<const topo::Machine> machine, bool oversubscribe,
                                    bool offer_oversubscribe) const {
    algo::LayoutOptions options;
    options.oversubscribe = oversubscribe;
    options.offer_oversubscribe = offer_oversubscribe;
    options.nodes = nodes;
    options.ranks_per_node = ranks_per_node;
    // --pus is a list placement; another placement named beside it is a contradiction.
    if (!pus.empty() && placement != "list" && placement_given_ && placement_given_())
        throw UsageError(fmt::format("--pus places the ranks on a list of PUs: not with --placement {}", placement));
    options.placement = pus.empty() ? algo::parse_placement(placement) : algo::Placement::list;
    options.pu_list = pus;
    return algo::make_layout(std::move(machine), options);
}

void AlgorithmOptions::add_to(CLI::App& command, bool many, bool rank_forms) {
    command.add_option("--collective,-c", collective, "allreduce, reduce, bcast, barrier, scatter, gather, allgather, reduce_scatter, alltoall or pingpong")->capture_default_str();
    command.add_option("--algorithm,-a", algorithm, many ? "algorithm names, comma separated (see numacoll dag --list)"
                                                         : "algorithm name (see numacoll dag --list)")
        ->capture_default_str();
    command.add_option("--root", root, "root rank of rooted collectives")->capture_default_str();
    command.add_option("--op", op, op_help)->capture_default_str();
    command.add_option("--datatype", datatype, datatype_help)->capture_default_str();
    if (rank_forms)
        command
            .add_option("--ranks-as", ranks_as,
                        "threads (ranks read each other's buffers) or processes (MPI processes of a node sharing a "
                        "segment: what another rank reads is copied into it; run --engine mpi runs one process per "
                        "rank)")
            ->check(CLI::IsMember({"threads", "processes"}))
            ->capture_default_str();
    if (rank_forms)
        command.add_flag("--single-copy", single_copy,
                         "with --ranks-as processes: an input that other ranks only copy from is read straight from "
                         "its owner's memory through the kernel (Linux's cross-memory attach, process_vm_readv), one "
                         "copy where the segment takes two");
    for (const auto& [name, help] : algorithm_option_flags()) command.add_option("--" + name, flagged[name], help);
    command.add_option("--option", extra_options, "any algorithm option as key=value (repeatable; see dag --list)");
}

sched::CollectiveSpec AlgorithmOptions::spec(std::uint64_t bytes) const {
    sched::CollectiveSpec spec;
    spec.collective = sched::parse_collective(collective);
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    spec.root = root;
    spec.op = sched::parse_reduce_op(op);
    spec.datatype = sched::parse_datatype(datatype);
    if (single_copy && !as_processes()) throw UsageError("--single-copy goes with --ranks-as processes");
    for (const auto& [name, value] : flagged)
        if (!value.empty()) spec.options[name] = value;
    for (const auto& item : extra_options) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError(fmt::format("--option '{}' must look like key=value", item));
        spec.options[item.substr(0, eq)] = item.substr(eq + 1);
    }
    return spec;
}

bool AlgorithmOptions::as_processes() const { return ranks_as == "processes"; }

sched::Schedule AlgorithmOptions::in_rank_form(sched::Schedule generated) const {
    if (!as_processes() || generated.rank_kind == sched::RankKind::shared_process) return generated;
    return sched::process_form(generated, {.single_copy = single_copy});
}

const char* const op_help =
    "reduction operation, as MPI's: sum, prod, min, max, land, lor, lxor, band, bor, bxor, minloc, maxloc";
const char* const datatype_help =
    "element type, as MPI names it without MPI_: int8 to int64, uint8 to uint64, char (text: no reduction), signed_char, "
    "unsigned_char, short, unsigned_short, int, unsigned, long, unsigned_long, long_long, unsigned_long_long, "
    "float, double, long_double, c_float_complex, c_double_complex, c_long_double_complex, c_bool, integer, "
    "real, double_precision, complex, double_complex, logical, byte, and for minloc/maxloc float_int, "
    "double_int, long_int, 2int, short_int, long_double_int";

const std::vector<std::pair<std::string, std::string>>& algorithm_option_flags() {
    static const std::vector<std::pair<std::string, std::string>> flags = {
        {"arity", "tree: fan-in (fan-out for bcast nary) of the tree (default 2)"},
        {"bcast", "tree, tiled*: broadcast 1stage, 2stage or (tree only) nary (default 1stage)"},
        {"strip", "tree, tiled*, dissemination: strip-mining chunk, auto, off or a size (default auto)"},
        {"segment", "flat, hier-* and leader algorithms: pipelining segment, 0 = unsegmented"},
        {"leader", "leader-based algorithms: default (the root's local rank) or nic (near the network interface)"},
        {"internode", "tree, tiled*: allreduce among node roots: recursive-doubling, ring, rabenseifner or binomial"},
    };
    return flags;
}

std::string option_syntax(const std::string& name) {
    for (const auto& flag : algorithm_option_flags())
        if (flag.first == name) return "--" + name;
    return "--option " + name + "=";
}

std::vector<std::string> split_list(const std::string& text, const std::string& what) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        const auto comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty()) throw UsageError(fmt::format("{} '{}' has an empty entry", what, text));
        items.push_back(std::move(item));
        if (comma == std::string::npos) return items;
        start = comma + 1;
    }
}

std::shared_ptr<const topo::Machine> load_this_machine(const std::string& spec) {
    auto live = std::make_shared<const topo::Machine>(topo::load_live());
    if (spec == "live") return live;
    auto described = std::make_shared<topo::Machine>(topo::load_machine(spec));
    if (const std::string difference = topo::hardware_difference(*described, *live); !difference.empty())
        throw UsageError(fmt::format("'{}' does not describe this machine ({}): the execution commands run here", spec,
                                     difference));
    described->this_system = live->this_system;
    return described;
}

algo::Layout live_layout(int threads, bool oversubscribe, const std::string& placement, const std::vector<int>& pus,
                         int nodes, const std::string& topology) {
    if (threads < 0) throw UsageError(fmt::format("--threads must be >= 0 (got {})", threads));
    MachineOptions options;
    options.topology = topology;
    options.nodes = nodes;
    options.ranks_per_node = threads;
    options.placement = placement;
    options.pus = pus;
    return options.layout(load_this_machine(topology), oversubscribe, true);
}

void MachineOptions::add_this_machine_to(CLI::App& command, const std::string& ranks_help) {
    topology = "live";
    command.add_option("--threads,-P,--ranks,-p", ranks_per_node, ranks_help)
        ->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    command.add_flag("--oversubscribe", oversubscribe, "allow more threads than PUs");
    command.add_option("--placement", placement, "compact, scatter (round-robin over packages) or list")
        ->capture_default_str();
    command.add_option("--pus", pus, "explicit logical PU list, e.g. 0,1")->delimiter(',');
    command
        .add_option("--topology,-t", topology,
                    "this machine: live (hwloc's discovery) or a saved hwloc XML export of it (- for standard input)")
        ->capture_default_str();
    command.add_flag("--no-pin", no_pin, "do not pin threads to their PUs");
}

algo::Layout MachineOptions::layout_here(int nodes) const {
    return live_layout(ranks_per_node, oversubscribe, placement, pus, nodes, topology);
}

void announce_generic_params(const costs::Params& params, const topo::Machine& machine, const std::string& command,
                             bool quiet) {
    if (params.generic_fallback && !quiet)
        std::cerr << fmt::format("numacoll {}: '{}' has no params of its own: using the generic set (a recent "
                                 "two-socket server); give its figures with --params FILE (docs/params.md)\n",
                                 command, machine.name);
}

std::vector<sched::CollectiveSpec> sweep_specs(const AlgorithmOptions& algorithm, const std::string& bytes) {
    std::vector<sched::CollectiveSpec> specs;
    for (const auto& name : split_list(algorithm.algorithm, "--algorithm"))
        for (std::uint64_t size : parse_byte_sizes(bytes, "--bytes")) {
            sched::CollectiveSpec spec = algorithm.spec(size);
            spec.algorithm = name;
            specs.push_back(spec);
        }
    return specs;
}

std::vector<sched::Schedule> load_schedules(const std::string& path) {
    return sched::schedules_from_file(path);
}

sched::Schedule load_schedule(const std::string& path) {
    std::vector<sched::Schedule> schedules = load_schedules(path);
    if (schedules.size() != 1)
        throw InputError(fmt::format("'{}' holds {} collectives one after another: this command takes one "
                                     "(numacoll sim and dag take such a sequence)",
                                     path, schedules.size()));
    return std::move(schedules.front());
}

void add_quiet_flag(CLI::App& command) {
    command.add_flag_callback("-q,--quiet", [] { set_progress_reports(false); },
                              "nothing on stderr but errors: no progress reports");
}

void refuse_generation_options_with_from(CLI::App& command) {
    for (const char* name : {"--nodes", "--ranks", "--threads", "--oversubscribe", "--placement", "--pus",
                             "--collective", "--algorithm", "--root", "--op", "--datatype", "--ranks-as", "--single-copy", "--arity", "--bcast", "--strip",
                             "--segment", "--leader", "--internode", "--option", "--bytes"}) {
        const CLI::Option* option = command.get_option_no_throw(name);
        if (option != nullptr && option->count() > 0)
            throw UsageError(fmt::format("--from reads a schedule that is already made: {} shapes a generated one",
                                         option->get_name()));
    }
}

void check_schedule_fits(const sched::Schedule& schedule, std::shared_ptr<const topo::Machine> machine,
                         const std::string& path) {
    (void)algo::layout_of_schedule(schedule, std::move(machine), fmt::format("'{}'", path));
}

void add_iteration_options(CLI::App& command, int& iterations, int* warmup) {
    command
        .add_option("--iterations,-n", iterations,
                    "timed iterations per point (default: by size, as OSU counts them: 1000 up to 8 KiB, 100 above)")
        ->check(CLI::Range(1, 100000000));
    if (warmup != nullptr)
        command.add_option("--warmup", *warmup, "untimed iterations first (default: by size: 200 up to 8 KiB, 10 above)")
            ->check(CLI::Range(0, 100000000));
}

void check_distinct_paths(const std::vector<CommandPath>& paths) {
    std::error_code ignored;
    const auto resolved = [&](const CommandPath& path) -> std::optional<std::filesystem::path> {
        if (path.path.empty()) return std::nullopt;
        const std::string named = path.path != "-" ? path.path : path.output ? "/dev/stdout" : "/dev/stdin";
        // An input that is no file here names something bundled (westmere, generic, live).
        if (!path.output && !std::filesystem::exists(named, ignored)) return std::nullopt;
        return std::filesystem::weakly_canonical(named, ignored);
    };
    for (std::size_t i = 0; i < paths.size(); ++i)
        for (std::size_t j = i + 1; j < paths.size(); ++j) {
            if (!paths[i].output && !paths[j].output) continue;
            const auto first = resolved(paths[i]);
            const auto second = resolved(paths[j]);
            if (!first || !second || *first != *second) continue;
            if (paths[i].output && paths[j].output)
                throw UsageError(fmt::format("{} and {} name the same file '{}': give each its own", paths[i].option,
                                             paths[j].option, paths[j].path));
            const CommandPath& input = paths[i].output ? paths[j] : paths[i];
            const CommandPath& output = paths[i].output ? paths[i] : paths[j];
            throw UsageError(fmt::format("{} writes the file {} reads ('{}'): write the result elsewhere", output.option,
                                         input.option, input.path));
        }
}

std::unique_ptr<OutputFolder> open_output_folder(const std::string& path, const std::string& command,
                                                 const std::vector<CommandPath>& inputs, OutputFolder::Scope scope) {
    const results::Provenance provenance = results::current_provenance();
    auto folder = std::make_unique<OutputFolder>(
        path, fmt::format("numacoll {} on {} at {}, numacoll {}", command, provenance.host, provenance.date,
                          provenance.numacoll),
        std::move(scope));
    for (const CommandPath& input : inputs)
        if (!input.output && !input.path.empty() && input.path != "-" && folder->would_remove(input.path))
            throw UsageError(fmt::format("{} reads '{}', a file of the earlier run in '{}' that this run replaces: "
                                         "copy it out of the folder first",
                                         input.option, input.path, path));
    return folder;
}

std::vector<int> llc_domains_of_ranks(const sched::Schedule& schedule, const topo::Machine& machine) {
    const costs::CoreLevels levels(machine);
    std::vector<int> domains;
    domains.reserve(schedule.ranks.size());
    for (const sched::RankInfo& rank : schedule.ranks) domains.push_back(levels.domain_of_core(rank.core));
    return domains;
}

}  // namespace numacoll::cli
