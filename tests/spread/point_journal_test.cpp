// The journal of a sweep's finished points: what it writes reads back, a
// torn last line is dropped, and a damaged or foreign file is refused.
#include "spread/point_journal.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hpp"

using namespace numacoll;

namespace {

std::string temporary_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))).string();
}

spread::JournalHead a_head() {
    spread::JournalHead head;
    head.signature = "--bytes=8B:1KiB;--collective=bcast;";
    head.version = "0.1.0-test";
    head.points = 5;
    head.fingerprint = spread::fingerprint_of({"a", "b", "c", "d", "e"});
    head.shard = {2, 3};
    head.command = {"tune", "--collective=bcast", "--bytes=8B:1KiB", "a word\twith a tab"};
    return head;
}

void append(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::app) << text;
}

}  // namespace

TEST(PointJournal, WhatItWritesReadsBackAndEndsWhole) {
    const std::string path = temporary_path("journal");
    {
        spread::PointJournal journal(path, a_head());
        journal.record(3, "1.5 1 2");
        journal.record(0, "line one\nline\ttwo \\ end");
        journal.record(4, "");
        journal.finish(3);
    }
    const spread::JournalContents contents = spread::read_journal(path);
    EXPECT_TRUE(contents.ended);
    EXPECT_EQ(spread::difference(contents.head, a_head()), "");
    EXPECT_EQ(contents.head.shard.index, 2);
    EXPECT_EQ(contents.head.shard.count, 3);
    EXPECT_EQ(contents.head.command, a_head().command);
    ASSERT_EQ(contents.results.size(), 3u);
    EXPECT_EQ(contents.results.at(3), "1.5 1 2");
    EXPECT_EQ(contents.results.at(0), "line one\nline\ttwo \\ end");
    EXPECT_EQ(contents.results.at(4), "");
    std::filesystem::remove(path);
}

TEST(PointJournal, ATornLastLineIsNoPointAndAnUnendedJournalSaysSo) {
    const std::string path = temporary_path("torn");
    {
        spread::PointJournal journal(path, a_head());
        journal.record(1, "10");
    }
    append(path, "2\t2");  // killed while writing: no newline
    const spread::JournalContents contents = spread::read_journal(path);
    EXPECT_FALSE(contents.ended);
    ASSERT_EQ(contents.results.size(), 1u);
    EXPECT_EQ(contents.results.at(1), "10");
    std::filesystem::remove(path);
}

TEST(PointJournal, DamagedOrForeignFilesAreRefusedWithTheirName) {
    const std::string path = temporary_path("damaged");
    const auto refused = [&](const std::string& tail, const std::string& why) {
        {
            spread::PointJournal journal(path, a_head());
            journal.record(1, "10");
        }
        append(path, tail);
        try {
            (void)spread::read_journal(path);
            ADD_FAILURE() << "accepted: " << tail;
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
            EXPECT_NE(std::string(error.what()).find(why), std::string::npos) << error.what();
        }
    };
    refused("1\t11\n", "point 1 given twice");
    refused("9\t11\n", "point 9 of a sweep of 5");
    refused("x\t11\n", "a damaged line");
    refused("2\tbad\\q\n", "a damaged line");
    refused("end\t5\n", "counts 5 points and it holds 1");
    refused("end\t1\n3\t1\n", "a line after its 'end' line");
    std::ofstream(path) << "selection,csv\n1,2\n";
    EXPECT_THROW((void)spread::read_journal(path), InputError);
    std::filesystem::remove(path);
}

TEST(PointJournal, HeadsOfDifferentSweepsDifferAndSayHow) {
    spread::JournalHead other = a_head();
    other.shard = {1, 3};  // another shard of the same sweep
    EXPECT_EQ(spread::difference(a_head(), other), "");
    other.version = "0.2.0";
    EXPECT_NE(spread::difference(a_head(), other).find("version"), std::string::npos);
    other = a_head();
    other.signature += "--root=1;";
    EXPECT_NE(spread::difference(a_head(), other).find("options"), std::string::npos);
    other = a_head();
    other.fingerprint = spread::fingerprint_of({"a", "b", "c", "d", "f"});
    EXPECT_NE(spread::difference(a_head(), other).find("points differ"), std::string::npos);
}

TEST(PointJournal, ShardsAreKOfN) {
    EXPECT_EQ(spread::parse_shard("1/1").count, 1);
    EXPECT_EQ(spread::parse_shard("3/8").index, 3);
    for (const char* bad : {"0/3", "4/3", "3", "/3", "1/", "a/b", "1/0", "-1/3", "1/200000", "1/3/4", " 1/3"})
        EXPECT_THROW((void)spread::parse_shard(bad), UsageError) << bad;
}

TEST(PointJournal, AnUnwritableJournalIsAUsageError) {
    EXPECT_THROW(spread::PointJournal("/nonexistent-folder/sweep-points.tsv", a_head()), UsageError);
}
