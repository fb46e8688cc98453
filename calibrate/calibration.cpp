#include "calibrate/calibration.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "calibrate/microbenchmarks.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "costs/core_levels.hpp"
#include "results/provenance.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::calibrate {

using costs::Level;

namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;

// One point of the plan: what it is, and how to measure it once.
struct Point {
    std::string label;
    std::function<Microbenchmarks::Timed(Microbenchmarks&)> measure;
};

int first_pu(const topo::Machine& machine, int core) { return machine.core(core).pus.front(); }

// The pairs (writer, reader) joined by each level, readers in core 0's
// domain, writers where the first pair's writer is (one hop away for
// other_socket). The first pair of a level is its uncontended one.
std::map<Level, std::vector<PuPair>> pairs_by_level(const topo::Machine& machine, const costs::CoreLevels& levels) {
    std::map<Level, std::vector<PuPair>> pairs;
    std::map<Level, int> writer_domain;
    std::map<Level, std::set<int>> used_writers;
    const int home = levels.domain_of_core(0);
    for (int reader = 0; reader < machine.core_count(); ++reader) {
        if (levels.domain_of_core(reader) != home) continue;
        std::set<Level> taken_by_reader;
        for (int writer = 0; writer < machine.core_count(); ++writer) {
            if (writer == reader) continue;
            const costs::LevelJoin join = levels.between(writer, reader);
            if (join.level == Level::other_socket && join.hops != 1) continue;
            if (taken_by_reader.count(join.level) || used_writers[join.level].count(writer)) continue;
            const int domain = levels.domain_of_core(writer);
            if (writer_domain.count(join.level) && writer_domain[join.level] != domain) continue;
            writer_domain[join.level] = domain;
            used_writers[join.level].insert(writer);
            taken_by_reader.insert(join.level);
            pairs[join.level].push_back({first_pu(machine, writer), first_pu(machine, reader)});
        }
    }
    return pairs;
}

std::vector<int> stream_counts(int most) {
    std::vector<int> counts;
    for (int d = 2; d < most; d *= 2) counts.push_back(d);
    if (most >= 2) counts.push_back(most);
    return counts;
}

std::uint64_t available_memory_bytes() {
    const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

}  // namespace

CalibrationRun calibrate_machine(const topo::Machine& machine, const CalibrationOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    const auto say = [&](const std::string& line) {
        if (options.progress) options.progress(line);
    };
    const costs::Params base = costs::load_params(options.base);
    const costs::CoreLevels levels(machine);
    BenchmarkIterations iterations;
    iterations.timed = options.quick ? 30 : 200;
    iterations.warmup = options.quick ? 5 : 10;
    iterations.flag_rounds = options.quick ? 50 : 100;
    const int rounds = options.quick ? 3 : 5;

    const std::uint64_t llc_bytes = std::max<std::uint64_t>(levels.llc_bytes_of_domain(0), 1 * MiB);
    std::vector<std::uint64_t> sizes = options.quick
                                           ? std::vector<std::uint64_t>{64, 1 * KiB, 16 * KiB, 256 * KiB, 4 * MiB}
                                           : std::vector<std::uint64_t>{64, 256, 1 * KiB, 4 * KiB, 16 * KiB, 64 * KiB,
                                                                        256 * KiB, 1 * MiB, 4 * MiB};
    // The simulator keeps what fits the last-level cache there: stay well inside it.
    std::erase_if(sizes, [&](std::uint64_t bytes) { return bytes > std::max<std::uint64_t>(64 * KiB, llc_bytes / 4); });
    std::vector<std::uint64_t> contended_sizes;
    for (std::uint64_t bytes : sizes)
        if (bytes >= 64 * KiB && (!options.quick || bytes >= 256 * KiB)) contended_sizes.push_back(bytes);

    std::vector<Point> plan;
    const int core0_pu = first_pu(machine, 0);
    const PuPair local{core0_pu, core0_pu};
    for (std::uint64_t bytes : sizes) {
        plan.push_back({fmt::format("copy local_cache {}", format_bytes(bytes)),
                        [=](Microbenchmarks& b) { return b.copy(Level::local_cache, local, bytes); }});
        plan.push_back({fmt::format("reduce local_cache {}", format_bytes(bytes)),
                        [=](Microbenchmarks& b) { return b.reduce(Level::local_cache, local, bytes); }});
    }
    const auto pairs = pairs_by_level(machine, levels);
    for (const auto& [level, list] : pairs) {
        const PuPair first = list.front();
        const char* name = costs::to_string(level);
        plan.push_back({fmt::format("flag {} PUs {},{}", name, first.writer_pu, first.reader_pu),
                        [=](Microbenchmarks& b) { return b.flag(level, first); }});
        for (std::uint64_t bytes : sizes) {
            plan.push_back({fmt::format("copy {} {}", name, format_bytes(bytes)),
                            [=](Microbenchmarks& b) { return b.copy(level, first, bytes); }});
            plan.push_back({fmt::format("reduce {} {}", name, format_bytes(bytes)),
                            [=](Microbenchmarks& b) { return b.reduce(level, first, bytes); }});
        }
        for (int d : stream_counts(static_cast<int>(list.size())))
            for (std::uint64_t bytes : contended_sizes) {
                const std::vector<PuPair> some(list.begin(), list.begin() + d);
                plan.push_back({fmt::format("{} concurrent copies {} {}", d, name, format_bytes(bytes)),
                                [=](Microbenchmarks& b) { return b.contended_copy(level, some, bytes); }});
            }
    }
    // DRAM: a buffer four times the last-level cache (twice in quick mode), if memory allows.
    const std::uint64_t dram_bytes =
        std::clamp<std::uint64_t>((options.quick ? 2 : 4) * llc_bytes, 64 * MiB, 1024 * MiB);
    const bool dram_fits = 2 * dram_bytes < available_memory_bytes() / 2;
    std::uint64_t dram_kept_bytes = 0;  // every DRAM point's buffers, kept from round to round
    if (dram_fits) {
        const int steps = options.quick ? 50000 : 200000;
        plan.push_back({fmt::format("DRAM chase through {}", format_bytes(dram_bytes)),
                        [=](Microbenchmarks& b) { return b.dram_chase(core0_pu, dram_bytes, steps); }});
        // Memory one hop away, two hops away...: the first NUMA node at each distance.
        std::map<int, int> remote_by_hops;
        for (int numa = 0; numa < static_cast<int>(machine.numa_nodes.size()); ++numa) {
            const int hops = levels.hops(levels.domain_of_core(0), levels.domain_of_numa(numa));
            if (hops > 0 && !remote_by_hops.count(hops)) remote_by_hops[hops] = numa;
        }
        for (const auto& [hops, numa] : remote_by_hops)
            plan.push_back({fmt::format("DRAM chase through {} on NUMA node {} ({} hops)", format_bytes(dram_bytes), numa, hops),
                            [=](Microbenchmarks& b) { return b.dram_chase(core0_pu, dram_bytes, steps, numa, hops); }});
        plan.push_back({fmt::format("DRAM copy {}", format_bytes(dram_bytes)),
                        [=](Microbenchmarks& b) { return b.dram_copy({core0_pu}, dram_bytes); }});
        std::vector<int> node_pus;
        const int numa0 = machine.numa_of_core(0);
        for (int core = 0; core < machine.core_count(); ++core)
            if (machine.numa_of_core(core) == numa0) node_pus.push_back(first_pu(machine, core));
        for (int d : stream_counts(static_cast<int>(node_pus.size()))) {
            const std::vector<int> some(node_pus.begin(), node_pus.begin() + d);
            const std::uint64_t each = dram_bytes / static_cast<std::uint64_t>(d) / 64 * 64;
            plan.push_back({fmt::format("{} concurrent DRAM copies {}", d, format_bytes(each)),
                            [=](Microbenchmarks& b) { return b.dram_copy(some, each); }});
        }
        // The chases' buffers, and the copies' pool (the concurrent copies carve theirs from it).
        dram_kept_bytes += (1 + remote_by_hops.size() + 2) * dram_bytes;
    } else {
        say(fmt::format("DRAM not measured: its buffers ({} twice) need more than half the free memory", format_bytes(dram_bytes)));
    }
    for (double flops : options.quick ? std::vector<double>{1e6} : std::vector<double>{1e5, 1e6})
        plan.push_back({fmt::format("compute {:.0e} flops", flops),
                        [=](Microbenchmarks& b) { return b.compute(core0_pu, flops); }});
    // Each reduction kernel but the doubles' (measured above), with its type's first operation.
    for (sched::Datatype datatype : sched::one_datatype_per_representation()) {
        if (datatype == sched::Datatype::double_) continue;
        const sched::ReduceOp op = sched::operations_on(datatype).front();
        const std::uint64_t bytes = 64 * KiB;
        plan.push_back({fmt::format("reduce {} {} {}", sched::to_string(datatype), sched::to_string(op), format_bytes(bytes)),
                        [=](Microbenchmarks& b) { return b.typed_reduce(core0_pu, bytes, datatype, op); }});
    }
    // The single copy between processes, where the system allows the call.
    if (Microbenchmarks::single_copy_allowed()) {
        for (std::uint64_t bytes : options.quick ? std::vector<std::uint64_t>{64, 256 * KiB}
                                                 : std::vector<std::uint64_t>{64, 16 * KiB, 256 * KiB})
            plan.push_back({fmt::format("single copy {}", format_bytes(bytes)),
                            [=](Microbenchmarks& b) { return b.single_copy(core0_pu, bytes); }});
    } else {
        say("single copy not measured: this system refuses process_vm_readv");
    }

    // Rounds interleave; each point pools its iterations over them. The DRAM
    // points keep their buffers from round to round when all of them fit in
    // half the free memory at once (what is measured is the same).
    Microbenchmarks bench(machine, iterations, dram_kept_bytes < available_memory_bytes() / 2);
    std::vector<Measurement> first_round(plan.size());
    std::vector<std::vector<double>> pooled(plan.size());
    const int total = static_cast<int>(plan.size()) * rounds;
    int done = 0;
    for (int round = 0; round < rounds; ++round)
        for (std::size_t k = 0; k < plan.size(); ++k) {
            Microbenchmarks::Timed timed = plan[k].measure(bench);
            if (round == 0) first_round[k] = timed.measurement;
            pooled[k].insert(pooled[k].end(), timed.iteration_ns.begin(), timed.iteration_ns.end());
            say(fmt::format("[{}/{}] {}: {:.1f} ns", ++done, total, plan[k].label, timed.measurement.time_ns));
        }
    CalibrationRun run;
    for (std::size_t k = 0; k < plan.size(); ++k) {
        Measurement m = first_round[k];
        const TimeStats stats = summarize_times(pooled[k]);
        m.time_ns = stats.median_ns;
        m.p10_ns = stats.p10_ns;
        m.p90_ns = stats.p90_ns;
        m.iterations = stats.iterations;
        run.measurements.push_back(m);
    }
    // The readers run in core 0's domain: its private cache is the one the rows spill from.
    const std::uint64_t private_bytes = levels.private_cache_bytes_of_core(0);
    run.fit = fit_measurements(run.measurements, base.cache_line_bytes, static_cast<double>(private_bytes));
    const results::Provenance provenance = results::current_provenance();
    const CalibrationStamp stamp{provenance.host, provenance.date, provenance.numacoll};
    run.params = calibrated_params(run.fit, run.measurements, base, stamp, &run.levels_from_base);
    if (private_bytes > 0)
        run.params.private_cache_bytes = costs::Figure{
            static_cast<double>(private_bytes),
            fmt::format("hwloc on {} at {}: the largest cache below the last level that core 0 has alone ({}); the "
                        "fit charged the rows whose working set exceeds it at same_socket",
                        stamp.host, stamp.date, format_bytes(private_bytes))};
    else
        run.params.private_cache_bytes.reset();
    run.threads_pinned = bench.threads_pinned();
    run.memory_bound = bench.memory_bound();
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return run;
}

costs::Params calibrated_params(const FitResult& fit, const std::vector<Measurement>& measurements,
                                const costs::Params& base, const CalibrationStamp& stamp,
                                std::vector<std::string>* levels_from_base) {
    costs::Params params = base;
    params.name = costs::calibrated_name(stamp.host);
    params.origin = params.name;
    params.generic_fallback = false;
    const std::string who = fmt::format("calibrated on {} at {} by numacoll {}", stamp.host, stamp.date, stamp.numacoll);
    std::map<Level, std::string> pus;
    for (const auto& m : measurements)
        if (!pus.count(m.level) && m.kind != Microbenchmark::compute) pus[m.level] = m.pus;
    std::vector<std::string> from_base;
    for (Level level : costs::all_levels) {
        costs::LevelParams& out = params.at(level);
        const auto found = fit.levels.find(level);
        if (found == fit.levels.end()) {
            const std::string why = level == Level::nic || level == Level::network
                                        ? "not measured (needs MPI between nodes)"
                                    : level == Level::dram ? "not measured (its buffers did not fit in free memory)"
                                                           : "not measured (this machine has no such level)";
            for (costs::Figure* figure : {&out.latency_ns, &out.bandwidth_bytes_per_ns, &out.aggregate_bandwidth_bytes_per_ns})
                figure->source = fmt::format("{} on {}: from base '{}': {}", why, stamp.host, base.name, figure->source);
            from_base.push_back(costs::to_string(level));
            continue;
        }
        const LevelFit& f = found->second;
        const std::string how = fmt::format("{}; microbenchmarks {} ({} rows, PUs {}); least-squares fit, residual {} RMS relative",
                                            who, f.microbenchmarks, f.rows, pus[level], percent(f.residual));
        out.latency_ns = {f.latency_ns, fmt::format("{}: latency a", how)};
        out.bandwidth_bytes_per_ns = {f.bandwidth_bytes_per_ns, fmt::format("{}: per-stream bandwidth 1/b", how)};
        if (level == Level::local_cache) {
            out.aggregate_bandwidth_bytes_per_ns = {f.bandwidth_bytes_per_ns, "private to one core: aggregate = per-stream"};
        } else if (f.aggregate_bytes_per_ns && f.contention_seen) {
            out.aggregate_bandwidth_bytes_per_ns = {*f.aggregate_bytes_per_ns,
                                                    fmt::format("{}: aggregate 1/B from {} concurrent streams", how,
                                                                f.streams_measured)};
        } else if (f.aggregate_bytes_per_ns) {
            out.aggregate_bandwidth_bytes_per_ns = {
                *f.aggregate_bytes_per_ns,
                fmt::format("{}: {} concurrent streams ran as fast as one, so the aggregate is at least {} x the "
                            "per-stream bandwidth (a lower bound)",
                            how, f.streams_measured, f.streams_measured)};
        } else {
            // One stream only: the base's aggregate, never below what one stream was seen to get.
            const double aggregate = std::max(out.aggregate_bandwidth_bytes_per_ns.value, f.bandwidth_bytes_per_ns);
            out.aggregate_bandwidth_bytes_per_ns = {
                aggregate, fmt::format("not measured on {} (one stream only): from base '{}', at least the measured "
                                       "per-stream bandwidth: {}",
                                       stamp.host, base.name, out.aggregate_bandwidth_bytes_per_ns.source)};
        }
    }
    if (fit.reduce_bytes_per_ns)
        params.reduce_bytes_per_ns = {*fit.reduce_bytes_per_ns,
                                      fmt::format("{}; microbenchmark reduce (exec::reduce_into, sum of doubles), "
                                                  "least-squares fit with the cache levels, residual {} RMS relative",
                                                  who, percent(fit.reduce_residual))};
    if (fit.compute_flops_per_ns)
        params.compute_flops_per_ns = costs::Figure{
            *fit.compute_flops_per_ns, fmt::format("{}; microbenchmark compute (exec::compute_flops), fit through the "
                                                   "origin, residual {} RMS relative",
                                                   who, percent(fit.compute_residual))};
    if (fit.flag_overhead_ns)
        params.flag_overhead_ns = costs::Figure{
            *fit.flag_overhead_ns,
            fmt::format("{}; microbenchmark flag (a ping-pong of exec::Flag): the one-way time beyond the line's a + 64 B x b, "
                        "median over the levels, residual {} RMS relative",
                        who, percent(fit.flag_residual))};
    for (const auto& [name, rate] : fit.reduce_bytes_per_ns_by_datatype)
        params.reduce_bytes_per_ns_by_datatype[name] = costs::Figure{
            rate, fmt::format("{}; microbenchmark typed-reduce (exec::reduce_into on {}, two 64 KiB vectors of the "
                              "core's own) less three passes at the fitted cache level; differs from the doubles' rate "
                              "by more than 10%",
                              who, name)};
    if (fit.single_copy_call_ns && fit.single_copy_page_ns) {
        const std::string how = fmt::format("{}; microbenchmark single-copy (process_vm_readv of the caller's own buffer) "
                                            "less the copy at the cache levels, least-squares fit, residual {} RMS "
                                            "relative",
                                            who, percent(fit.single_copy_residual));
        params.single_copy = costs::SingleCopyParams{{*fit.single_copy_call_ns, how + ": per call"},
                                                     {*fit.single_copy_page_ns, how + ": per 4 KiB page"}};
    }
    const auto mark = [&](costs::Figure& figure) {
        figure.source = fmt::format("not measured on {} (needs MPI processes): from base '{}': {}", stamp.host, base.name,
                                    figure.source);
    };
    if (params.messages)
        for (costs::Figure* figure : {&params.messages->network_send_overhead_ns, &params.messages->network_receive_overhead_ns,
                                      &params.messages->network_gap_ns, &params.messages->process_send_overhead_ns,
                                      &params.messages->process_receive_overhead_ns})
            mark(*figure);
    if (params.nic_dma)
        for (costs::Figure* figure : {&params.nic_dma->read_window_bytes, &params.nic_dma->write_window_bytes}) mark(*figure);
    // Whether the LLC merges concurrent misses is a property of its design, which no microbenchmark here times.
    if (params.llc_merge_bytes)
        params.llc_merge_bytes->source = fmt::format("not measured on {}: from base '{}': {}", stamp.host, base.name,
                                                     params.llc_merge_bytes->source);
    std::string measured;
    for (const auto& [level, f] : fit.levels) measured += (measured.empty() ? "" : ", ") + std::string(costs::to_string(level));
    std::string unmeasured;
    for (const auto& name : from_base) unmeasured += (unmeasured.empty() ? "" : ", ") + name;
    params.description = fmt::format("{}; measured: {}; from base '{}': {}, message overheads, NIC DMA", who, measured,
                                     base.name, unmeasured.empty() ? "none" : unmeasured);
    if (levels_from_base) *levels_from_base = from_base;
    return params;
}

std::string measurements_csv(const std::vector<Measurement>& measurements, const costs::Params& params) {
    std::string out = "microbenchmark,level,bytes,streams,hops,pus,median_ns,p10_ns,p90_ns,iterations,fitted_ns,fit_error\n";
    for (const auto& m : measurements) {
        const double fitted = predicted_ns(m, params);
        // A point within the harness's floor measures 0 and stays out of the fit: no error to give.
        const std::string kind = m.kind == Microbenchmark::typed_reduce
                                     ? fmt::format("{} {}", to_string(m.kind), sched::to_string(m.datatype))
                                     : std::string(to_string(m.kind));
        out += fmt::format("{},{},{},{},{},\"{}\",{:.2f},{:.2f},{:.2f},{},{:.2f},{}\n", kind,
                           costs::to_string(m.level), m.bytes, m.streams, m.hops, m.pus, m.time_ns, m.p10_ns, m.p90_ns,
                           m.iterations, fitted,
                           m.time_ns > 0 ? fmt::format("{:.4f}", (fitted - m.time_ns) / m.time_ns) : std::string());
    }
    return out;
}

}  // namespace numacoll::calibrate
