// Task labels are interned texts: equal texts share one copy.
#include "schedule/label.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>

using numacoll::sched::Label;

TEST(Label, EqualTextsShareOneCopy) {
    const Label a = std::string("c0:reduce:package+L3:r0");
    const Label b = "c0:reduce:package+L3:r0";
    const Label c = "c0:reduce:package+L3:r1";
    EXPECT_EQ(&a.text(), &b.text());
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    EXPECT_EQ(c.text(), "c0:reduce:package+L3:r1");
}

TEST(Label, EmptyIsTheDefault) {
    EXPECT_TRUE(Label().empty());
    EXPECT_TRUE(Label("").empty());
    EXPECT_EQ(Label(""), Label());
    EXPECT_EQ(Label().text(), "");
    EXPECT_FALSE(Label("x").empty());
}

TEST(Label, PrintsAsItsText) {
    const Label label = "bcast:r3";
    EXPECT_EQ(fmt::format("[{}]", label), "[bcast:r3]");
    std::ostringstream out;
    out << label;
    EXPECT_EQ(out.str(), "bcast:r3");
    const std::string& text = label;
    EXPECT_EQ(text, "bcast:r3");
}
