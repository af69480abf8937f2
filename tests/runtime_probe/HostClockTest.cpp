#include "HostClock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace streamlint::probe;

// Ticks converted with the run's calibration measure what CLOCK_MONOTONIC
// measures, TSC or not.
TEST(HostClock, TicksConvertToNanoseconds) {
  HostClock clock;
  clock.start();
  std::uint64_t t0 = clock.now();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  std::uint64_t t1 = clock.now();
  ASSERT_GT(t1, t0);
  double ns = double(t1 - t0) * clock.nanosecondsPerTick();
  EXPECT_GT(ns, 25e6);
  EXPECT_LT(ns, 300e6); // a loaded CI machine may oversleep
  if (!clock.usesTsc())
    EXPECT_EQ(clock.nanosecondsPerTick(), 1.0);
}
