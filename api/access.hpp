// api::Access: how the library's entry points (api/*.cpp) reach the
// internal values behind the public types of include/numacoll/, and wrap
// internal values into them. Nothing outside api/ uses it.
#pragma once

#include <memory>
#include <utility>

#include "algorithms/layout.hpp"
#include "costs/params.hpp"
#include "numacoll/engines.hpp"
#include "numacoll/machine.hpp"
#include "numacoll/schedule.hpp"
#include "results/result_row.hpp"
#include "schedule/schedule.hpp"
#include "topologies/machine.hpp"

namespace numacoll::api {

struct Access {
    static const topo::Machine& of(const Machine& machine) { return *machine.machine_; }
    static std::shared_ptr<const topo::Machine> shared(const Machine& machine) { return machine.machine_; }
    static const costs::Params& of(const Params& params) { return *params.params_; }
    static const algo::Layout& of(const Layout& layout) { return *layout.layout_; }
    static std::shared_ptr<const algo::Layout> shared(const Layout& layout) { return layout.layout_; }
    static const sched::Schedule& of(const Schedule& schedule) { return *schedule.schedule_; }

    static Machine wrap(std::shared_ptr<const topo::Machine> value) {
        Machine machine;
        machine.machine_ = std::move(value);
        return machine;
    }
    static Params wrap(costs::Params value) {
        Params params;
        params.params_ = std::make_shared<const costs::Params>(std::move(value));
        return params;
    }
    static Layout wrap(algo::Layout value) {
        Layout layout;
        layout.layout_ = std::make_shared<const algo::Layout>(std::move(value));
        return layout;
    }
    static Schedule wrap(sched::Schedule value) {
        Schedule schedule;
        schedule.schedule_ = std::make_shared<const sched::Schedule>(std::move(value));
        return schedule;
    }
};

// The public spec in the internal one's types (UsageError for an unknown
// collective, operation or datatype), and back.
sched::CollectiveSpec internal_spec(const CollectiveSpec& spec);
CollectiveSpec public_spec(const sched::CollectiveSpec& spec);

// The public row of an internal one, with the model's time where given.
ResultRow public_row(const results::ResultRow& row, std::optional<double> model_ns);

}  // namespace numacoll::api
