// Every algorithm of the generators' registry has a closed-form model or is
// listed without one, with a reason; neither list names an algorithm that
// does not exist, and none is in both.
#include "models/registry.hpp"

#include <gtest/gtest.h>

#include <set>

#include "algorithms/registry.hpp"

using namespace numacoll;

TEST(ModelRegistry, EveryAlgorithmHasAModelOrIsMarkedWithout) {
    std::set<std::pair<sched::Collective, std::string>> algorithms;
    for (const auto& info : algo::algorithm_registry()) algorithms.insert({info.collective, info.name});
    std::set<std::pair<sched::Collective, std::string>> without;
    for (const auto& entry : models::algorithms_without_model()) {
        EXPECT_TRUE(algorithms.count({entry.collective, entry.name}))
            << sched::to_string(entry.collective) << " " << entry.name << " is listed without a model but is no algorithm";
        EXPECT_FALSE(entry.why.empty()) << entry.name;
        EXPECT_TRUE(without.insert({entry.collective, entry.name}).second) << entry.name << " is listed twice";
    }
    for (const auto& model : models::model_registry()) {
        EXPECT_TRUE(algorithms.count({model.collective, model.name})) << model.name << " models no algorithm";
        EXPECT_FALSE(without.count({model.collective, model.name})) << model.name << " has a model and is listed without";
        EXPECT_FALSE(model.source.empty()) << model.name;
    }
    for (const auto& [collective, name] : algorithms) {
        const bool modelled = models::find_model(collective, name) != nullptr;
        EXPECT_TRUE(modelled || without.count({collective, name}))
            << sched::to_string(collective) << " " << name << " has no model and is not listed without one";
    }
    ASSERT_NE(models::find_model(sched::Collective::allreduce, "tree"), nullptr);
    EXPECT_TRUE(models::algorithms_without_model().empty());
}
