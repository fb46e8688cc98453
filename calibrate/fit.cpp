#include "calibrate/fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "common/error.hpp"
#include "common/statistics.hpp"

namespace numacoll::calibrate {

using costs::Level;

const char* to_string(Microbenchmark kind) {
    switch (kind) {
        case Microbenchmark::flag: return "flag";
        case Microbenchmark::copy: return "copy";
        case Microbenchmark::reduce: return "reduce";
        case Microbenchmark::contended_copy: return "contended-copy";
        case Microbenchmark::dram_chase: return "dram-chase";
        case Microbenchmark::dram_copy: return "dram-copy";
        case Microbenchmark::contended_dram_copy: return "contended-dram-copy";
        case Microbenchmark::compute: return "compute";
        case Microbenchmark::single_copy: return "single-copy";
        case Microbenchmark::typed_reduce: return "typed-reduce";
    }
    return "?";
}

namespace {

// The bytes a microbenchmark's task touches: its operands and its result.
double working_set_bytes(const Measurement& mb) {
    const double m = static_cast<double>(mb.bytes);
    switch (mb.kind) {
        case Microbenchmark::copy:
        case Microbenchmark::single_copy:
        case Microbenchmark::contended_copy: return 2 * m;
        case Microbenchmark::reduce:
        case Microbenchmark::typed_reduce: return 3 * m;
        default: return 0;
    }
}

bool spills(const Measurement& mb, double private_cache_bytes) {
    return costs::spills_private_cache(private_cache_bytes, working_set_bytes(mb));
}

// The level a row's own-core accesses are charged at.
Level own_level(const Measurement& mb, double private_cache_bytes) {
    return spills(mb, private_cache_bytes) ? Level::same_socket : Level::local_cache;
}

// The level a row reads its remote operand at.
Level read_level(const Measurement& mb, double private_cache_bytes) {
    return mb.level == Level::local_cache ? own_level(mb, private_cache_bytes) : mb.level;
}

}  // namespace

double FitResult::worst_cache_residual() const {
    double worst = 0;
    for (const auto& [level, fit] : levels)
        if (level != Level::dram) worst = std::max(worst, fit.residual);
    return worst;
}

double predicted_ns(const Measurement& mb, const costs::Params& params) {
    const double m = static_cast<double>(mb.bytes);
    const double line = params.cache_line_bytes;
    const double private_cache_bytes = params.private_cache_bytes ? params.private_cache_bytes->value : 0;
    const bool spilled = spills(mb, private_cache_bytes);
    // The core's own data: in its private caches, or in its LLC once the working set spills.
    const costs::LevelParams& own = params.at(own_level(mb, private_cache_bytes));
    const costs::LevelParams& at = params.at(read_level(mb, private_cache_bytes));
    const auto b = [](const costs::LevelParams& level) { return 1.0 / level.bandwidth_bytes_per_ns.value; };
    const auto big_b = [](const costs::LevelParams& level) { return 1.0 / level.aggregate_bandwidth_bytes_per_ns.value; };
    const double write_ns = own.latency_ns.value + m * b(own);
    const double read_ns = at.latency_ns.value + m * b(at);
    const double d = mb.streams;
    switch (mb.kind) {
        case Microbenchmark::flag:
            return at.latency_ns.value + line * b(at) + (params.flag_overhead_ns ? params.flag_overhead_ns->value : 0);
        case Microbenchmark::copy: return read_ns + write_ns;
        case Microbenchmark::reduce: return write_ns + read_ns + m / params.reduce_bytes_per_ns.value + write_ns;
        case Microbenchmark::contended_copy:
            // The readers share one LLC: spilled writes contend in it too.
            return at.latency_ns.value + m * std::max(b(at), d * big_b(at)) +
                   (spilled ? own.latency_ns.value + m * std::max(b(own), d * big_b(own)) : write_ns);
        case Microbenchmark::dram_chase:
            return at.latency_ns.value + mb.hops * params.at(Level::other_socket).latency_ns.value + line * b(at);
        case Microbenchmark::dram_copy: return 2 * read_ns;
        case Microbenchmark::contended_dram_copy: return 2 * (at.latency_ns.value + m * std::max(b(at), d * big_b(at)));
        case Microbenchmark::compute:
            if (!params.compute_flops_per_ns) throw UsageError("params give no core.compute_flops_per_ns");
            return m / params.compute_flops_per_ns->value;
        case Microbenchmark::typed_reduce: return 3 * write_ns + m / costs::reduce_rate(params, mb.datatype).value;
        case Microbenchmark::single_copy:
            return read_ns + write_ns +
                   (params.single_copy ? params.single_copy->call_ns.value +
                                             costs::SingleCopyParams::pages(mb.bytes) * params.single_copy->page_ns.value
                                       : 0);
    }
    return 0;
}

namespace {

// Weighted linear least squares: minimises sum_i (row_i . x - y_i)^2 over
// the columns not held at zero; returns x with held columns at 0. Columns
// are scaled to unit norm first (latencies and per-byte costs differ by
// orders of magnitude). Empty when the free columns are not determined.
std::optional<std::vector<double>> least_squares(const std::vector<std::vector<double>>& rows,
                                                 const std::vector<double>& y, const std::vector<bool>& held) {
    const std::size_t k = held.size();
    std::vector<std::size_t> free;
    for (std::size_t j = 0; j < k; ++j)
        if (!held[j]) free.push_back(j);
    const std::size_t n = free.size();
    std::vector<double> scale(n, 0);
    for (std::size_t c = 0; c < n; ++c) {
        for (const auto& row : rows) scale[c] += row[free[c]] * row[free[c]];
        if (!(scale[c] > 0)) return std::nullopt;
        scale[c] = std::sqrt(scale[c]);
    }
    // Normal equations of the scaled problem, then Gaussian elimination with partial pivoting.
    std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0));
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t r = 0; r < n; ++r) {
            const double u = rows[i][free[r]] / scale[r];
            for (std::size_t c = 0; c < n; ++c) a[r][c] += u * rows[i][free[c]] / scale[c];
            a[r][n] += u * y[i];
        }
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r)
            if (std::fabs(a[r][col]) > std::fabs(a[pivot][col])) pivot = r;
        if (std::fabs(a[pivot][col]) < 1e-12) return std::nullopt;
        std::swap(a[pivot], a[col]);
        for (std::size_t r = 0; r < n; ++r) {
            if (r == col) continue;
            const double factor = a[r][col] / a[col][col];
            for (std::size_t c = col; c <= n; ++c) a[r][c] -= factor * a[col][c];
        }
    }
    std::vector<double> x(k, 0);
    for (std::size_t c = 0; c < n; ++c) x[free[c]] = a[c][n] / a[c][c] / scale[c];
    return x;
}

// Least squares with every coefficient >= 0: a negative one is held at
// zero (the most negative first) and the rest fitted again.
std::vector<double> non_negative_fit(const std::vector<std::vector<double>>& rows, const std::vector<double>& y,
                                     std::size_t unknowns, const std::string& what) {
    std::vector<bool> held(unknowns, false);
    for (;;) {
        const auto x = least_squares(rows, y, held);
        if (!x)
            throw CheckError(fmt::format("calibration: the measurements do not determine {} (too few distinct sizes)", what));
        std::size_t worst = unknowns;
        for (std::size_t j = 0; j < unknowns; ++j)
            if (!held[j] && (*x)[j] < 0 && (worst == unknowns || (*x)[j] < (*x)[worst])) worst = j;
        if (worst == unknowns) return *x;
        held[worst] = true;
    }
}

bool is_cache_row(const Measurement& mb) { return mb.kind == Microbenchmark::copy || mb.kind == Microbenchmark::reduce; }

double rms(const std::vector<double>& values) {
    if (values.empty()) return 0;
    double sum = 0;
    for (double v : values) sum += v * v;
    return std::sqrt(sum / static_cast<double>(values.size()));
}

std::string join_kinds(const std::set<std::string>& kinds) {
    std::string out;
    for (const auto& kind : kinds) out += (out.empty() ? "" : ", ") + kind;
    return out;
}

// Columns of the cache-level problem: a_l, b_l, 1/rate, then a_L, b_L per remote level.
struct CacheColumns {
    std::map<Level, std::size_t> latency, per_byte;
    std::size_t inverse_rate = 2;
    std::size_t count = 3;
};

CacheColumns cache_columns(const std::vector<Measurement>& measurements, double private_cache_bytes) {
    CacheColumns columns;
    columns.latency[Level::local_cache] = 0;
    columns.per_byte[Level::local_cache] = 1;
    const auto add = [&](Level level) {
        if (columns.latency.count(level)) return;
        columns.latency[level] = columns.count++;
        columns.per_byte[level] = columns.count++;
    };
    for (const auto& mb : measurements)
        if (is_cache_row(mb)) {
            add(read_level(mb, private_cache_bytes));
            add(own_level(mb, private_cache_bytes));
        }
    return columns;
}

std::vector<double> cache_row(const Measurement& mb, const CacheColumns& columns, double private_cache_bytes) {
    std::vector<double> row(columns.count, 0);
    const double m = static_cast<double>(mb.bytes);
    const auto add = [&](Level level, double latency_times, double bytes) {
        row[columns.latency.at(level)] += latency_times;
        row[columns.per_byte.at(level)] += bytes;
    };
    const Level own = own_level(mb, private_cache_bytes);
    switch (mb.kind) {
        case Microbenchmark::copy:
            add(read_level(mb, private_cache_bytes), 1, m);
            add(own, 1, m);
            break;
        case Microbenchmark::reduce:
            add(read_level(mb, private_cache_bytes), 1, m);
            add(own, 2, 2 * m);
            row[columns.inverse_rate] += m;
            break;
        default: break;
    }
    return row;
}

// The aggregate of a level from its contended rows, given its a and b:
// the per-byte cost x of each row (m >= 16 KiB, where bytes dominate)
// shows contention when it exceeds b by 5%; then B = x / d. A row whose
// writes spill to the LLC counts only at same_socket, where its reads and
// writes contend alike (elsewhere the LLC's share cannot be separated).
void fit_aggregate(Level level, LevelFit& fit, const std::vector<Measurement>& rows, const costs::LevelParams& local,
                   double private_cache_bytes) {
    std::vector<double> aggregates;
    const double b = 1.0 / fit.bandwidth_bytes_per_ns;
    for (const auto& mb : rows) {
        fit.streams_measured = std::max(fit.streams_measured, mb.streams);
        const double m = static_cast<double>(mb.bytes);
        if (m < 16384) continue;
        const bool spilled = mb.kind == Microbenchmark::contended_copy && spills(mb, private_cache_bytes);
        if (spilled && level != Level::same_socket) continue;
        const double per_byte = mb.kind == Microbenchmark::contended_dram_copy || spilled
                                    ? (mb.time_ns / 2 - fit.latency_ns) / m
                                    : (mb.time_ns - fit.latency_ns - local.latency_ns.value) / m -
                                          1.0 / local.bandwidth_bytes_per_ns.value;
        if (per_byte > 1.05 * b) aggregates.push_back(mb.streams / per_byte);
    }
    if (!aggregates.empty()) {
        fit.contention_seen = true;
        fit.aggregate_bytes_per_ns = median(aggregates);
    } else if (fit.streams_measured > 0) {
        fit.aggregate_bytes_per_ns = fit.streams_measured * fit.bandwidth_bytes_per_ns;
    }
}

}  // namespace

FitResult fit_measurements(const std::vector<Measurement>& measurements, double line, double private_cache_bytes) {
    FitResult result;
    // 1. The cache levels, the reduction rate: one linear problem.
    const CacheColumns columns = cache_columns(measurements, private_cache_bytes);
    std::vector<std::vector<double>> rows;
    std::vector<double> y;
    std::vector<const Measurement*> used;
    bool reduces = false;
    for (const auto& mb : measurements) {
        if (!is_cache_row(mb) || !(mb.time_ns > 0)) continue;
        std::vector<double> row = cache_row(mb, columns, private_cache_bytes);
        for (double& v : row) v /= mb.time_ns;
        rows.push_back(row);
        y.push_back(1.0);
        used.push_back(&mb);
        reduces = reduces || mb.kind == Microbenchmark::reduce;
    }
    if (!rows.empty()) {
        std::vector<std::vector<double>> problem = rows;
        std::vector<double> x;
        if (reduces) {
            x = non_negative_fit(problem, y, columns.count, "the cache levels and the reduction rate");
        } else {  // no sum measured: the rate is in no row, and out of the problem
            for (auto& row : problem) row.erase(row.begin() + static_cast<long>(columns.inverse_rate));
            x = non_negative_fit(problem, y, columns.count - 1, "the cache levels");
            x.insert(x.begin() + static_cast<long>(columns.inverse_rate), 0.0);
        }
        for (const auto& [level, latency_column] : columns.latency) {
            const double per_byte = x[columns.per_byte.at(level)];
            if (!(per_byte > 0))
                throw CheckError(fmt::format("calibration: the fit gives {} no per-byte cost (its measurements do not grow "
                                             "with size); measure larger sizes",
                                             costs::to_string(level)));
            LevelFit fit;
            fit.latency_ns = x[latency_column];
            fit.bandwidth_bytes_per_ns = 1.0 / per_byte;
            result.levels[level] = fit;
        }
        if (reduces && x[columns.inverse_rate] > 0) result.reduce_bytes_per_ns = 1.0 / x[columns.inverse_rate];
        // Residuals per level: a row counts for each level it uses.
        std::map<Level, std::vector<double>> errors;
        std::map<Level, std::set<std::string>> kinds;
        std::vector<double> reduce_errors;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            double predicted = 0;
            for (std::size_t j = 0; j < x.size(); ++j) predicted += rows[i][j] * x[j];
            const double error = predicted - 1.0;  // rows are relative already
            for (Level level : std::set<Level>{read_level(*used[i], private_cache_bytes),
                                               own_level(*used[i], private_cache_bytes)}) {
                errors[level].push_back(error);
                kinds[level].insert(to_string(used[i]->kind));
            }
            if (used[i]->kind == Microbenchmark::reduce) reduce_errors.push_back(error);
        }
        for (auto& [level, fit] : result.levels) {
            fit.residual = rms(errors[level]);
            fit.rows = static_cast<int>(errors[level].size());
            fit.microbenchmarks = join_kinds(kinds[level]);
        }
        result.reduce_residual = rms(reduce_errors);
    }

    // Flags: what they take beyond their line, at the levels fitted above.
    std::vector<double> overheads;
    std::vector<std::pair<double, double>> flag_lines;  // (line time, measured)
    for (const auto& mb : measurements) {
        if (mb.kind != Microbenchmark::flag || !(mb.time_ns > 0) || !result.levels.count(mb.level)) continue;
        const LevelFit& at = result.levels.at(mb.level);
        const double line_ns = at.latency_ns + line / at.bandwidth_bytes_per_ns;
        overheads.push_back(mb.time_ns - line_ns);
        flag_lines.emplace_back(line_ns, mb.time_ns);
    }
    if (!overheads.empty()) {
        result.flag_overhead_ns = std::max(0.0, median(overheads));
        std::vector<double> errors;
        for (const auto& [line_ns, measured] : flag_lines) errors.push_back((line_ns + *result.flag_overhead_ns) / measured - 1);
        result.flag_residual = rms(errors);
    }

    // 2. DRAM: chases and copies, a second linear problem.
    std::vector<std::vector<double>> dram_rows;
    std::vector<double> dram_y;
    std::set<std::string> dram_kinds;
    for (const auto& mb : measurements) {
        if (!(mb.time_ns > 0)) continue;
        const double m = static_cast<double>(mb.bytes);
        double links_ns = 0;  // the inter-socket links' latency on the way to remote memory
        if (mb.kind == Microbenchmark::dram_chase && mb.hops > 0) {
            const auto across = result.levels.find(Level::other_socket);
            if (across == result.levels.end()) continue;  // a_o unknown: the row cannot be separated
            links_ns = mb.hops * across->second.latency_ns;
        }
        if (mb.kind == Microbenchmark::dram_chase)
            dram_rows.push_back({1 / mb.time_ns, line / mb.time_ns});
        else if (mb.kind == Microbenchmark::dram_copy)
            dram_rows.push_back({2 / mb.time_ns, 2 * m / mb.time_ns});
        else
            continue;
        dram_y.push_back(1.0 - links_ns / mb.time_ns);
        dram_kinds.insert(to_string(mb.kind));
    }
    if (!dram_rows.empty()) {
        const std::vector<double> x = non_negative_fit(dram_rows, dram_y, 2, "the DRAM latency and bandwidth");
        if (!(x[1] > 0)) throw CheckError("calibration: the fit gives DRAM no per-byte cost");
        LevelFit fit;
        fit.latency_ns = x[0];
        fit.bandwidth_bytes_per_ns = 1.0 / x[1];
        std::vector<double> errors;
        for (std::size_t i = 0; i < dram_rows.size(); ++i)
            errors.push_back(dram_rows[i][0] * x[0] + dram_rows[i][1] * x[1] - dram_y[i]);
        fit.residual = rms(errors);
        fit.rows = static_cast<int>(errors.size());
        fit.microbenchmarks = join_kinds(dram_kinds);
        result.levels[Level::dram] = fit;
    }

    // 3. Aggregates, from the contended rows of each fitted level.
    const costs::LevelParams local_params = [&] {
        costs::LevelParams local;
        if (result.levels.count(Level::local_cache)) {
            local.latency_ns.value = result.levels[Level::local_cache].latency_ns;
            local.bandwidth_bytes_per_ns.value = result.levels[Level::local_cache].bandwidth_bytes_per_ns;
        }
        return local;
    }();
    std::map<Level, std::vector<Measurement>> contended;
    for (const auto& mb : measurements)
        if (mb.kind == Microbenchmark::contended_copy || mb.kind == Microbenchmark::contended_dram_copy)
            contended[mb.level].push_back(mb);
    for (auto& [level, list] : contended) {
        auto found = result.levels.find(level);
        if (found == result.levels.end())
            throw CheckError(fmt::format("calibration: contended measurements of {} without its single-stream ones",
                                         costs::to_string(level)));
        if (level != Level::dram && !result.levels.count(Level::local_cache))
            throw CheckError("calibration: contended copies need the local copies to separate the write");
        fit_aggregate(level, found->second, list, local_params, private_cache_bytes);
        found->second.microbenchmarks += ", " + std::string(to_string(list.front().kind));
    }

    // 4. The compute rate: flops = rate x time through the origin, relative errors.
    double sum_ratio = 0, sum_square = 0;
    std::vector<const Measurement*> computes;
    for (const auto& mb : measurements)
        if (mb.kind == Microbenchmark::compute && mb.time_ns > 0) {
            const double ratio = static_cast<double>(mb.bytes) / mb.time_ns;
            sum_ratio += ratio;
            sum_square += ratio * ratio;
            computes.push_back(&mb);
        }
    if (!computes.empty()) {
        const double ns_per_flop = sum_ratio / sum_square;
        result.compute_flops_per_ns = 1.0 / ns_per_flop;
        std::vector<double> errors;
        for (const auto* mb : computes) errors.push_back(static_cast<double>(mb->bytes) * ns_per_flop / mb->time_ns - 1.0);
        result.compute_residual = rms(errors);
    }

    // 5. Each type's reduction rate, where it differs from the doubles': what
    // its fold takes beyond the three passes over the core's own data.
    if (result.reduce_bytes_per_ns)
        for (const auto& mb : measurements) {
            if (mb.kind != Microbenchmark::typed_reduce || !(mb.time_ns > 0)) continue;
            const auto own = result.levels.find(own_level(mb, private_cache_bytes));
            if (own == result.levels.end()) continue;
            const double m = static_cast<double>(mb.bytes);
            const double fold_ns = mb.time_ns - 3 * (own->second.latency_ns + m / own->second.bandwidth_bytes_per_ns);
            if (!(fold_ns > 0)) continue;  // within the passes' noise: not told apart from them
            const double rate = m / fold_ns;
            if (std::abs(rate / *result.reduce_bytes_per_ns - 1) > 0.1)
                result.reduce_bytes_per_ns_by_datatype[sched::to_string(mb.datatype)] = rate;
        }

    // 6. The single copy: what process_vm_readv takes beyond the copy its
    // bytes make at the levels fitted above, c + pages x g, relative errors.
    std::vector<std::vector<double>> single_rows;
    std::vector<double> single_y;
    for (const auto& mb : measurements) {
        if (mb.kind != Microbenchmark::single_copy || !(mb.time_ns > 0)) continue;
        const auto own = result.levels.find(own_level(mb, private_cache_bytes));
        if (own == result.levels.end()) continue;
        const double copy_ns = 2 * (own->second.latency_ns + static_cast<double>(mb.bytes) / own->second.bandwidth_bytes_per_ns);
        single_rows.push_back({1 / mb.time_ns, costs::SingleCopyParams::pages(mb.bytes) / mb.time_ns});
        single_y.push_back(1.0 - copy_ns / mb.time_ns);
    }
    if (!single_rows.empty()) {
        const std::vector<double> x = non_negative_fit(single_rows, single_y, 2, "the single copy's call and page costs");
        result.single_copy_call_ns = x[0];
        result.single_copy_page_ns = x[1];
        std::vector<double> errors;
        for (std::size_t i = 0; i < single_rows.size(); ++i)
            errors.push_back(single_rows[i][0] * x[0] + single_rows[i][1] * x[1] - single_y[i]);
        result.single_copy_residual = rms(errors);
    }
    return result;
}

}  // namespace numacoll::calibrate
