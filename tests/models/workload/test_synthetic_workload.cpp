#include "models/workload/EmpiricalDistribution.hpp"
#include "models/workload/SyntheticGenerator.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace acmesim;

namespace {

using Kind = EmpiricalDistribution::Kind;

EmpiricalSpec table(std::vector<double> values, std::vector<double> cdf) { return {std::move(values), std::move(cdf)}; }

SyntheticTypeSpec make_type(JobType type, double rate)
{
  SyntheticTypeSpec t;
  t.type = type;
  t.arrivals_per_hour = rate;
  t.gpus = table({0, 1, 2, 4, 8}, {0.1, 0.5, 0.7, 0.9, 1});
  t.duration_s = table({60, 3600, 86400}, {0.5, 0.9, 1});
  return t;
}

std::vector<Job> jobs_of(const Workload& w, JobType type)
{
  std::vector<Job> out;
  for (const auto& j : w.jobs)
    if (j.type == type)
      out.push_back(j);
  return out;
}

bool same_job(const Job& a, const Job& b)
{
  return a.id == b.id && a.name == b.name && a.user == b.user && a.type == b.type && a.gpus == b.gpus &&
         a.trace_nodes == b.trace_nodes && a.cpus == b.cpus && a.submit_s == b.submit_s &&
         a.duration_s == b.duration_s && a.final_state == b.final_state;
}

} // namespace

TEST_CASE("check_empirical_spec rejects each kind of invalid table with a precise message")
{
  CHECK(check_empirical_spec(table({}, {}), Kind::Discrete) == "table is empty (values must have at least one entry)");
  CHECK(check_empirical_spec(table({1, 2, 3}, {0.5, 1}), Kind::Discrete) ==
        "values and cdf must have the same length (3 values, 2 cdf entries)");
  CHECK(check_empirical_spec(table({1, 2, 4, 4}, {0.1, 0.2, 0.3, 1}), Kind::Discrete) ==
        "values must be strictly increasing (values[3] = 4 after 4)");
  CHECK(check_empirical_spec(table({1, 3, 2}, {0.1, 0.2, 1}), Kind::LogLinear) ==
        "values must be strictly increasing (values[2] = 2 after 3)");
  CHECK(check_empirical_spec(table({1, 2, 3}, {0.5, 0.4, 1}), Kind::Discrete) ==
        "cdf must be non-decreasing (cdf[1] = 0.4 after 0.5)");
  CHECK(check_empirical_spec(table({1, 2, 3}, {0.5, 1.2, 1}), Kind::Discrete) ==
        "cdf entries must be in [0, 1] (cdf[1] = 1.2)");
  CHECK(check_empirical_spec(table({1, 2}, {-0.1, 1}), Kind::Discrete) ==
        "cdf entries must be in [0, 1] (cdf[0] = -0.1)");
  CHECK(check_empirical_spec(table({1, 2, 3}, {0.2, 0.5, 0.9}), Kind::Discrete) ==
        "the last cdf entry must be 1 (cdf[2] = 0.9)");
  CHECK(check_empirical_spec(table({0, 10}, {0.5, 1}), Kind::LogLinear) ==
        "values must be positive for a log-linear table (values[0] = 0)");
  CHECK(check_empirical_spec(table({-5, 10}, {0.5, 1}), Kind::LogLinear) ==
        "values must be positive for a log-linear table (values[0] = -5)");

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_FALSE(check_empirical_spec(table({1, nan}, {0.5, 1}), Kind::Discrete).empty());
  CHECK_FALSE(check_empirical_spec(table({1, inf}, {0.5, 1}), Kind::LogLinear).empty());
  CHECK_FALSE(check_empirical_spec(table({1, 2}, {nan, 1}), Kind::Discrete).empty());

  CHECK_THROWS_AS(EmpiricalDistribution(table({1, 2}, {0.5, 0.9}), Kind::Discrete), std::invalid_argument);
}

TEST_CASE("check_empirical_spec accepts valid tables")
{
  CHECK(check_empirical_spec(table({1, 2, 4, 8}, {0.5, 0.7, 0.9, 1}), Kind::Discrete) == "");
  CHECK(check_empirical_spec(table({0, 1, 8}, {0.2, 0.6, 1}), Kind::Discrete) == ""); // 0 = CPU-only is fine
  CHECK(check_empirical_spec(table({7}, {1}), Kind::Discrete) == "");
  CHECK(check_empirical_spec(table({7}, {1}), Kind::LogLinear) == "");
  CHECK(check_empirical_spec(table({1, 2, 3}, {0, 0.5, 1}), Kind::LogLinear) == "");  // cdf may start at 0
  CHECK(check_empirical_spec(table({1, 2, 3}, {0.5, 0.5, 1}), Kind::Discrete) == ""); // flat step allowed
  CHECK(check_empirical_spec(table({-3, 2}, {0.5, 1}), Kind::Discrete) == "");        // only LogLinear needs > 0
}

TEST_CASE("Discrete quantile is the smallest value whose cdf exceeds u")
{
  const EmpiricalDistribution d(table({1, 2, 4, 8}, {0.5, 0.7, 0.9, 1}), Kind::Discrete);
  CHECK(d.quantile(0) == 1);
  CHECK(d.quantile(0.49) == 1);
  CHECK(d.quantile(0.5) == 2);
  CHECK(d.quantile(0.69) == 2);
  CHECK(d.quantile(0.7) == 4);
  CHECK(d.quantile(0.9) == 8);
  CHECK(d.quantile(0.95) == 8);
  CHECK(d.quantile(std::nextafter(1.0, 0.0)) == 8);
  CHECK(d.quantile(1) == 8); // outside the domain: clamps to the largest value

  // A value whose cdf equals its predecessor's has no mass.
  const EmpiricalDistribution flat(table({1, 2, 3}, {0.5, 0.5, 1}), Kind::Discrete);
  CHECK(flat.quantile(0.4999) == 1);
  CHECK(flat.quantile(0.5) == 3);

  // cdf[0] = 0: the first value is never drawn.
  const EmpiricalDistribution zero_first(table({0, 5}, {0, 1}), Kind::Discrete);
  CHECK(zero_first.quantile(0) == 5);
}

TEST_CASE("LogLinear quantile interpolates log(value) linearly in the cdf")
{
  const EmpiricalDistribution d(table({10, 1000}, {0.5, 1}), Kind::LogLinear);
  CHECK(d.quantile(0) == 10);    // below cdf[0]: the implicit atom at values[0]
  CHECK(d.quantile(0.49) == 10);
  CHECK(d.quantile(0.5) == Approx(10).epsilon(1e-12));
  CHECK(std::abs(d.quantile(0.75) - 100) < 1e-9);
  CHECK(d.quantile(0.625) == Approx(std::sqrt(1000.0)).epsilon(1e-12)); // 10^1.5
  CHECK(d.quantile(1) == 1000);

  // Three segments; cdf starts at 0 so there is no atom.
  const EmpiricalDistribution d3(table({1, 100, 10000}, {0, 0.2, 1}), Kind::LogLinear);
  CHECK(d3.quantile(0) == Approx(1).epsilon(1e-12));
  CHECK(d3.quantile(0.1) == Approx(10).epsilon(1e-12));
  CHECK(d3.quantile(0.2) == Approx(100).epsilon(1e-12));
  CHECK(d3.quantile(0.6) == Approx(1000).epsilon(1e-12));
  CHECK(d3.quantile(0.8) == Approx(std::pow(10.0, 3.5)).epsilon(1e-12));

  // A single-point table is a constant.
  const EmpiricalDistribution one(table({42}, {1}), Kind::LogLinear);
  CHECK(one.quantile(0) == 42);
  CHECK(one.quantile(0.999) == 42);
}

TEST_CASE("sample draws exactly one uniform01 per call and follows the table")
{
  const EmpiricalDistribution d(table({0, 1, 2, 4, 8}, {0.1, 0.5, 0.7, 0.9, 1}), Kind::Discrete);
  RandomEngine a = make_stream(7, "test.sample");
  RandomEngine b = make_stream(7, "test.sample");
  for (int i = 0; i < 100; ++i)
    REQUIRE(d.sample(a) == d.quantile(uniform01(b)));

  // Analytic mean: 0.4*1 + 0.2*2 + 0.2*4 + 0.1*8 = 2.4; sd = sqrt(10.8 - 2.4^2) ~ 2.245.
  RandomEngine rng = make_stream(11, "test.mean");
  const int n = 20000;
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += d.sample(rng);
  const double four_sigma = 4 * std::sqrt(10.8 - 2.4 * 2.4) / std::sqrt(n);
  CHECK(std::abs(sum / n - 2.4) < four_sigma);
}

TEST_CASE("generator is deterministic for a seed and changes with the seed")
{
  SyntheticSpec spec;
  spec.days = 2;
  spec.users = 10;
  spec.types = {make_type(JobType::Pretrain, 3), make_type(JobType::Eval, 20)};
  spec.types[1].state_shares = {0.5, 0.2, 0.2, 0.05, 0.05};

  const Workload a = generate_synthetic_workload(spec, 42);
  const Workload b = generate_synthetic_workload(spec, 42);
  const Workload c = generate_synthetic_workload(spec, 43);

  CHECK(a.source == "synthetic");
  CHECK(a.skipped_rows == 0);
  REQUIRE(a.jobs.size() > 500); // ~1,104 expected
  REQUIRE(a.jobs.size() == b.jobs.size());
  for (std::size_t i = 0; i < a.jobs.size(); ++i)
    REQUIRE(same_job(a.jobs[i], b.jobs[i]));

  bool differs = a.jobs.size() != c.jobs.size();
  for (std::size_t i = 0; !differs && i < a.jobs.size(); ++i)
    differs = !same_job(a.jobs[i], c.jobs[i]);
  CHECK(differs);
}

TEST_CASE("adding a type does not change an existing type's jobs")
{
  SyntheticSpec one;
  one.days = 3;
  one.types = {make_type(JobType::SFT, 5)};
  SyntheticSpec two = one;
  two.types.push_back(make_type(JobType::Debug, 30));
  // The extra type placed first must not matter either.
  SyntheticSpec two_reordered = two;
  std::swap(two_reordered.types[0], two_reordered.types[1]);

  const auto alone = jobs_of(generate_synthetic_workload(one, 5), JobType::SFT);
  REQUIRE(alone.size() > 100); // ~360 expected
  for (const auto* other : {&two, &two_reordered}) {
    const Workload mixed_w = generate_synthetic_workload(*other, 5);
    REQUIRE(jobs_of(mixed_w, JobType::Debug).size() > 1000);
    const auto mixed = jobs_of(mixed_w, JobType::SFT);
    REQUIRE(mixed.size() == alone.size());
    for (std::size_t i = 0; i < alone.size(); ++i) {
      // Normalisation rebases on the earliest job of all types, so compare offsets from the type's first job.
      CHECK(mixed[i].submit_s - mixed[0].submit_s == Approx(alone[i].submit_s - alone[0].submit_s).margin(1e-6));
      CHECK(mixed[i].name == alone[i].name);
      CHECK(mixed[i].gpus == alone[i].gpus);
      CHECK(mixed[i].duration_s == alone[i].duration_s);
      CHECK(mixed[i].final_state == alone[i].final_state);
      CHECK(mixed[i].user == alone[i].user);
    }
  }
}

TEST_CASE("arrival count, gpu mean and state shares match the spec")
{
  SyntheticSpec spec;
  spec.days = 100;
  spec.users = 50;
  auto type = make_type(JobType::MLLM, 10);
  type.state_shares = {0.6, 0.2, 0.1, 0.06, 0.04};
  spec.types = {type};

  const Workload w = generate_synthetic_workload(spec, 2024);
  const double expected = 10.0 * 24 * 100; // 24,000
  const auto n = static_cast<double>(w.jobs.size());
  CHECK(std::abs(n - expected) < 4 * std::sqrt(expected));

  // gpus table {0, 1, 2, 4, 8} / {0.1, 0.5, 0.7, 0.9, 1}: mean 2.4, variance 5.04.
  double gpu_sum = 0;
  std::array<double, 5> state_count{};
  std::set<std::string> users;
  for (const auto& j : w.jobs) {
    gpu_sum += j.gpus;
    state_count[static_cast<std::size_t>(j.final_state)] += 1;
    users.insert(j.user);
  }
  CHECK(std::abs(gpu_sum / n - 2.4) < 4 * std::sqrt(5.04 / n));
  for (std::size_t s = 0; s < 5; ++s) {
    const double p = type.state_shares[s];
    INFO("state " << to_string(enum_values<JobState>()[s]));
    CHECK(std::abs(state_count[s] / n - p) < 4 * std::sqrt(p * (1 - p) / n));
  }
  // 24,000 uniform draws over 50 users reach all of them, and nothing outside u0..u49.
  CHECK(users.size() == 50);
  CHECK(users.count("u0") == 1);
  CHECK(users.count("u49") == 1);
  CHECK(users.count("u50") == 0);

  // duration table {60, 3600, 86400} / {0.5, 0.9, 1}: an atom of 0.5 at 60 s, 90% at most 1 h.
  const auto at_min = std::count_if(w.jobs.begin(), w.jobs.end(), [](const Job& j) { return j.duration_s == 60; });
  const auto within_hour =
      std::count_if(w.jobs.begin(), w.jobs.end(), [](const Job& j) { return j.duration_s <= 3600 * (1 + 1e-12); });
  CHECK(std::abs(static_cast<double>(at_min) / n - 0.5) < 4 * std::sqrt(0.25 / n));
  CHECK(std::abs(static_cast<double>(within_hour) / n - 0.9) < 4 * std::sqrt(0.09 / n));
  CHECK(std::all_of(w.jobs.begin(), w.jobs.end(),
                    [](const Job& j) { return j.duration_s >= 60 && j.duration_s <= 86400 * (1 + 1e-12); }));
}

TEST_CASE("job fields: cpus, nodes, names, times and ids")
{
  SyntheticSpec spec;
  spec.days = 5;
  auto a = make_type(JobType::Debug, 8);
  a.gpus = table({0, 4, 16}, {0.3, 0.6, 1});
  a.cpus_per_gpu = 12;
  a.cpus_if_cpu_only = 3;
  auto idle = make_type(JobType::Eval, 0); // rate 0: skipped
  auto b = make_type(JobType::Pretrain, 2);
  b.gpus = table({64}, {1});
  spec.types = {a, idle, b};

  const Workload w = generate_synthetic_workload(spec, 99);
  REQUIRE(!w.jobs.empty());
  CHECK(w.jobs.front().submit_s == 0);
  CHECK(jobs_of(w, JobType::Eval).empty());

  bool saw_cpu_only = false;
  bool saw_16 = false;
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    const Job& j = w.jobs[i];
    REQUIRE(j.id == i);
    if (i > 0)
      REQUIRE(w.jobs[i - 1].submit_s <= j.submit_s);
    REQUIRE(j.submit_s >= 0);
    REQUIRE(j.submit_s < spec.days * 86400);
    if (j.type == JobType::Debug) {
      if (j.gpus == 0) {
        saw_cpu_only = true;
        CHECK(j.cpus == 3);
        CHECK(j.trace_nodes == 0);
      } else if (j.gpus == 4) {
        CHECK(j.cpus == 48);
        CHECK(j.trace_nodes == 1);
      } else {
        saw_16 = true;
        CHECK(j.gpus == 16);
        CHECK(j.cpus == 192);
        CHECK(j.trace_nodes == 2);
      }
    } else {
      REQUIRE(j.type == JobType::Pretrain);
      CHECK(j.gpus == 64);
      CHECK(j.cpus == 64 * 16);
      CHECK(j.trace_nodes == 8);
    }
  }
  CHECK(saw_cpu_only);
  CHECK(saw_16);

  // Names count each type's jobs from 0 in arrival order.
  for (JobType t : {JobType::Debug, JobType::Pretrain}) {
    const auto js = jobs_of(w, t);
    REQUIRE(!js.empty());
    for (std::size_t k = 0; k < js.size(); ++k)
      REQUIRE(js[k].name == std::string(to_string(t)) + "-" + std::to_string(k));
  }
}

TEST_CASE("generator edge cases")
{
  SyntheticSpec empty;
  empty.types = {make_type(JobType::Other, 0)};
  const Workload none = generate_synthetic_workload(empty, 1);
  CHECK(none.jobs.empty());
  CHECK(none.source == "synthetic");

  // A type listed twice gets a second stream, not a copy of the first one's jobs.
  SyntheticSpec twice;
  twice.days = 1;
  twice.types = {make_type(JobType::SFT, 10), make_type(JobType::SFT, 10)};
  const Workload w = generate_synthetic_workload(twice, 3);
  std::set<std::string> names;
  std::set<double> durations;
  for (const auto& j : w.jobs) {
    names.insert(j.name);
    durations.insert(j.duration_s);
  }
  CHECK(names.size() == w.jobs.size());
  CHECK(durations.size() > w.jobs.size() / 3); // half are the 60 s atom; the rest are all distinct
}

TEST_CASE("normalise_workload: jobs in submission order, ties in their listed order, times from the first")
{
  // Shuffled submissions with many ties, so the permutation has long cycles and equal keys.
  Workload w;
  std::mt19937 rng(3);
  for (int i = 0; i < 5000; ++i) {
    Job job;
    job.name = "j" + std::to_string(i);
    job.submit_s = 100.0 + static_cast<double>(rng() % 700);
    w.jobs.push_back(job);
  }
  std::vector<Job> expected = w.jobs;
  std::stable_sort(expected.begin(), expected.end(), [](const Job& a, const Job& b) { return a.submit_s < b.submit_s; });
  normalise_workload(w);
  REQUIRE(w.jobs.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("position " << i);
    REQUIRE(w.jobs[i].name == expected[i].name);
    REQUIRE(w.jobs[i].id == i);
    REQUIRE(w.jobs[i].submit_s == expected[i].submit_s - expected.front().submit_s);
  }
  // Already in order: kept as it is.
  const std::vector<Job> sorted = w.jobs;
  normalise_workload(w);
  for (std::size_t i = 0; i < sorted.size(); ++i)
    REQUIRE(w.jobs[i].name == sorted[i].name);
}
