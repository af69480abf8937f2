// Stand-in for Thrust's algorithms: each with and without a policy (the
// real headers tell them apart by enable_if; here by their arity).
#pragma once
#pragma clang system_header

namespace thrust {
template <typename It, typename F> void for_each(It first, It last, F f) {}
template <typename P, typename It, typename F>
void for_each(const P &policy, It first, It last, F f) {}
template <typename It> void sort(It first, It last) {}
template <typename P, typename It> void sort(const P &policy, It first, It last) {}
template <typename It, typename T> void fill(It first, It last, const T &value) {}
template <typename P, typename It, typename T>
void fill(const P &policy, It first, It last, const T &value) {}
template <typename It> int reduce(It first, It last) { return 0; }
template <typename P, typename It> int reduce(const P &policy, It first, It last) { return 0; }
} // namespace thrust
