// The time allocation (engine/src/time_plan.cpp), tested as the pure function it is: no clock is
// read, so these tests do not depend on the machine's load.
#include <papan/engine/time_plan.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace papan::engine {
namespace {

SearchLimits move_time(double s) {
    SearchLimits l;
    l.move_time = s;
    return l;
}

SearchLimits clock(double left, double increment = 0, int moves_to_go = 0) {
    SearchLimits l;
    l.time_left   = left;
    l.increment   = increment;
    l.moves_to_go = moves_to_go;
    return l;
}

TEST(TimePlan, NoPlan_WithoutATimeLimit) {
    for (const SearchLimits& l : {SearchLimits{}, [] {
                                      SearchLimits i = clock(10);
                                      i.infinite     = true;
                                      return i;
                                  }()}) {
        const TimePlan p = plan_time(l);
        EXPECT_EQ(p.soft, 0);
        EXPECT_EQ(p.hard, 0);
        EXPECT_EQ(p.target, 0);
    }
}

TEST(TimePlan, FixedMoveTime_IsSpentToWithinTenPercent_AndNeverExceeded) {
    for (const double budget : {0.005, 0.02, 0.1, 0.2, 1.0, 5.0, 60.0}) {
        const TimePlan p = plan_time(move_time(budget));
        EXPECT_GE(p.hard, 0.9 * budget) << budget;
        EXPECT_LT(p.hard, budget) << budget;
        // Unspent time is lost: no iteration is skipped to save it.
        EXPECT_EQ(p.soft, p.hard) << budget;
    }
}

TEST(TimePlan, SuddenDeath_SpendsAThirtiethAndStopsNewIterationsHalfway) {
    const TimePlan p = plan_time(clock(60.05));
    EXPECT_DOUBLE_EQ(p.target, 2.0);
    EXPECT_DOUBLE_EQ(p.soft, 2.0 * 0.55);
    EXPECT_DOUBLE_EQ(p.hard, 8.0);
}

TEST(TimePlan, HardDeadline_IsAtMostFortyPercentOfTheClock) {
    for (const double left : {0.1, 0.5, 1.0, 3.0, 10.0, 100.0}) {
        for (const double inc : {0.0, 0.5, 2.0, 10.0}) {
            const TimePlan p = plan_time(clock(left, inc, 5));
            EXPECT_LE(p.hard, 0.4 * left) << left << " " << inc;
            EXPECT_LE(p.soft, p.target);
            EXPECT_LE(p.target, p.hard);
            EXPECT_GT(p.soft, 0);
        }
    }
}

TEST(TimePlan, Increment_AddsThreeQuartersOfItself) {
    const TimePlan without = plan_time(clock(30.05));
    const TimePlan with    = plan_time(clock(30.05, 2.0));
    EXPECT_DOUBLE_EQ(with.target - without.target, 1.5);
}

TEST(TimePlan, MovesToGo_ShareTheClock) {
    EXPECT_DOUBLE_EQ(plan_time(clock(10.05, 0, 10)).target, 1.0);
    EXPECT_DOUBLE_EQ(plan_time(clock(10.05, 0, 40)).target, 0.25);
}

TEST(TimePlan, LastMoveBeforeTheControl_UsesMostOfWhatIsLeft) {
    const TimePlan p = plan_time(clock(10.05, 0, 1));
    EXPECT_GE(p.hard, 8.0);
    EXPECT_LT(p.hard, 10.0);
    EXPECT_EQ(p.soft, p.hard);
}

TEST(TimePlan, ByoYomi_OnceMainTimeIsGone_IsSpentButNotExceeded) {
    SearchLimits l   = clock(0);
    l.byo_yomi       = 5;
    l.periods        = 2;
    const TimePlan p = plan_time(l);
    EXPECT_GE(p.hard, 0.8 * 5);
    EXPECT_LT(p.hard, 5);
    EXPECT_EQ(p.soft, p.hard);
}

TEST(TimePlan, ByoYomi_WithMainTimeLeft_AddsPartOfAPeriod) {
    SearchLimits l     = clock(30.05);
    const double plain = plan_time(l).target;
    l.byo_yomi         = 2;
    l.periods          = 1;
    EXPECT_DOUBLE_EQ(plan_time(l).target - plain, 1.4);
}

// Whole games against the clock: a player that always uses its hard deadline (the worst case)
// never loses on time with an increment, and one that spends its target still has time left
// after sixty moves of sudden death.
TEST(TimePlan, NeverFlags_EvenWhenEveryMoveRunsToTheHardDeadline) {
    for (const double inc : {0.1, 1.0, 3.0}) {
        double left = 5;
        for (int move = 0; move < 300; ++move) {
            left -= plan_time(clock(left, inc)).hard;
            ASSERT_GT(left, 0) << "move " << move << " increment " << inc;
            left += inc;
        }
    }
    double left = 300;
    for (int move = 0; move < 60; ++move) {
        left -= plan_time(clock(left)).target;
    }
    EXPECT_GT(left, 300 * 0.1);
}

}  // namespace
}  // namespace papan::engine
