// workload.load_scale on a replayed trace (thinned or replicated at the jobs' own times) and on
// a synthetic workload by hand (rates scaled).
#include "models/workload/LoadScale.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace acmesim;

namespace {

Workload trace_of(std::size_t n)
{
  Workload w;
  for (std::size_t i = 0; i < n; ++i) {
    Job j;
    j.id = static_cast<JobId>(i);
    j.name = "j" + std::to_string(i);
    j.gpus = 1 + static_cast<int>(i % 8);
    j.submit_s = 10.0 * static_cast<double>(i);
    j.duration_s = 100 + static_cast<double>(i);
    w.jobs.push_back(j);
  }
  return w;
}

std::vector<std::string> names(const Workload& w)
{
  std::vector<std::string> out;
  for (const Job& j : w.jobs)
    out.push_back(j.name);
  return out;
}

} // namespace

TEST_CASE("load scale: 1 replays the trace as it is, a whole number replicates every job at its time")
{
  Workload same = trace_of(5);
  resample_arrivals(same, 1, 7);
  CHECK(names(same) == names(trace_of(5)));

  Workload tripled = trace_of(3);
  resample_arrivals(tripled, 3, 7);
  CHECK(names(tripled) == std::vector<std::string>{"j0", "j0~1", "j0~2", "j1", "j1~1", "j1~2", "j2", "j2~1", "j2~2"});
  for (std::size_t i = 0; i < tripled.jobs.size(); ++i) {
    const Job& j = tripled.jobs[i];
    CHECK(j.id == i);
    CHECK(j.submit_s == 10.0 * static_cast<double>(i / 3));
    CHECK(j.duration_s == 100 + static_cast<double>(i / 3));
    CHECK(j.gpus == 1 + static_cast<int>(i / 3));
  }
}

TEST_CASE("load scale: a fraction thins (or adds one more copy of) each job with that probability, by seed")
{
  const std::size_t n = 10000;
  Workload half = trace_of(n);
  resample_arrivals(half, 0.5, 7);
  // Binomial(10,000, 0.5): sd 50; 4 sd either side.
  CHECK(half.jobs.size() > 4800);
  CHECK(half.jobs.size() < 5200);
  for (std::size_t i = 1; i < half.jobs.size(); ++i) {
    CHECK(half.jobs[i].id == i);
    CHECK(half.jobs[i].submit_s > half.jobs[i - 1].submit_s);
  }
  Workload again = trace_of(n), other_seed = trace_of(n);
  resample_arrivals(again, 0.5, 7);
  resample_arrivals(other_seed, 0.5, 8);
  CHECK(names(again) == names(half));
  CHECK(names(other_seed) != names(half));

  // 2.5 keeps every job twice and adds a third copy of exactly the jobs 0.5 keeps (one draw per
  // job), so scales that differ in their whole part differ by whole copies of the trace.
  Workload more = trace_of(n);
  resample_arrivals(more, 2.5, 7);
  std::vector<std::string> third_copies;
  for (const Job& j : more.jobs)
    if (j.name.ends_with("~2"))
      third_copies.push_back(j.name.substr(0, j.name.size() - 2));
  CHECK(third_copies == names(half));
  CHECK(more.jobs.size() == 2 * n + half.jobs.size());
}

TEST_CASE("load scale: a synthetic workload by hand scales every type's arrival rate")
{
  SyntheticSpec spec;
  spec.types.resize(2);
  spec.types[0].arrivals_per_hour = 3;
  spec.types[1].arrivals_per_hour = 0.5;
  const SyntheticSpec scaled = scaled_synthetic(spec, 1.5);
  CHECK(scaled.types[0].arrivals_per_hour == 4.5);
  CHECK(scaled.types[1].arrivals_per_hour == 0.75);
}
