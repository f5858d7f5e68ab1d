// Evaluation campaigns as a model: inference times of the dataset catalogue, chunks of
// datasets, campaign jobs, LPT packing (the default catalogue: tests/sim/config/test_default_catalogue.cpp).
#include "models/common/InputError.hpp"
#include "models/evaluation/EvalCampaign.hpp"
#include "models/evaluation/TrialPacking.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace acmesim;

namespace {

DatasetEntry entry(std::string name, std::vector<std::pair<double, double>> inference, double preprocess,
                   double metric, bool cached = false)
{
  DatasetEntry d;
  d.name = std::move(name);
  d.inference_s = std::move(inference);
  d.preprocess_s = preprocess;
  d.metric_s = metric;
  d.cached = cached;
  return d;
}

EvalSpec small_spec()
{
  EvalSpec spec;
  spec.enabled = true;
  spec.catalogue.datasets = {entry("long", {{7, 1000}}, 30, 60), entry("short", {{7, 100}}, 10, 5),
                             entry("warm", {{7, 200}}, 40, 2, true)};
  spec.campaigns_s = {0};
  return spec;
}

} // namespace

// --- catalogue maths -------------------------------------------------------------------------

TEST_CASE("inference time is exact at table sizes and log-log interpolated between them")
{
  DatasetCatalogue cat;
  const DatasetEntry d = entry("d", {{7, 100}, {20, 250}, {70, 1000}}, 0, 0);
  CHECK(cat.inference_s(d, 7) == Approx(100));
  CHECK(cat.inference_s(d, 20) == Approx(250));
  CHECK(cat.inference_s(d, 70) == Approx(1000));
  // The geometric midpoint of two sizes gets the geometric mean of their times.
  CHECK(cat.inference_s(d, std::sqrt(20.0 * 70.0)) == Approx(std::sqrt(250.0 * 1000.0)));
  CHECK(cat.inference_s(d, std::sqrt(7.0 * 20.0)) == Approx(std::sqrt(100.0 * 250.0)));
  // Monotone between points.
  CHECK(cat.inference_s(d, 10) > 100);
  CHECK(cat.inference_s(d, 10) < 250);
}

TEST_CASE("inference time is proportional to parameters beyond the table and for a single size")
{
  DatasetCatalogue cat;
  const DatasetEntry d = entry("d", {{7, 100}, {70, 1000}}, 0, 0);
  CHECK(cat.inference_s(d, 3.5) == Approx(50));
  CHECK(cat.inference_s(d, 140) == Approx(2000));
  const DatasetEntry single = entry("s", {{7, 114}}, 0, 0);
  CHECK(cat.inference_s(single, 7) == Approx(114));
  CHECK(cat.inference_s(single, 14) == Approx(228));
  CHECK(cat.inference_s(single, 3.5) == Approx(57));
}

TEST_CASE("find looks datasets up by exact name")
{
  const EvalSpec spec = small_spec();
  REQUIRE(spec.catalogue.find("short") != nullptr);
  CHECK(spec.catalogue.find("short")->metric_s == 5);
  CHECK(spec.catalogue.find("Short") == nullptr);
  CHECK(spec.catalogue.find("") == nullptr);
}

// --- chunks and campaign jobs ----------------------------------------------------------------

TEST_CASE("cut_dataset splits a long dataset into equal chunks whose shares sum to its totals")
{
  EvalSpec spec = small_spec();
  spec.chunk_s = 300;
  const auto chunks = cut_dataset(spec, 2, 0); // "long": 1000 s of inference -> 4 chunks of 250 s
  REQUIRE(chunks.size() == 4);
  double pre = 0, inf = 0, met = 0;
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    CHECK(chunks[k].campaign == 2);
    CHECK(chunks[k].dataset == 0);
    CHECK(chunks[k].chunk == static_cast<int>(k));
    CHECK(chunks[k].chunks == 4);
    CHECK(chunks[k].inference_s == Approx(250));
    CHECK(chunks[k].model_bytes == Approx(7e9 * 2));
    pre += chunks[k].preprocess_s;
    inf += chunks[k].inference_s;
    met += chunks[k].metric_s;
  }
  CHECK(pre == Approx(30));
  CHECK(inf == Approx(1000));
  CHECK(met == Approx(60));

  // A dataset no longer than chunk_s stays whole; an exact multiple does not gain a chunk.
  CHECK(cut_dataset(spec, 0, 1).size() == 1);
  spec.chunk_s = 250;
  CHECK(cut_dataset(spec, 0, 0).size() == 4);
  spec.chunk_s = 0;
  const auto whole = cut_dataset(spec, 0, 0);
  REQUIRE(whole.size() == 1);
  CHECK(whole[0].preprocess_s == 30);
  CHECK(whole[0].inference_s == 1000);
  CHECK(whole[0].metric_s == 60);
}

TEST_CASE("cut_dataset skips preprocessing of cached datasets and scales with the model")
{
  EvalSpec spec = small_spec();
  spec.model_params_b = 14;
  spec.weight_bytes_per_param = 1;
  const auto warm = cut_dataset(spec, 0, 2);
  REQUIRE(warm.size() == 1);
  CHECK(warm[0].preprocess_s == 0);
  CHECK(warm[0].inference_s == Approx(400)); // single-size table: proportional
  CHECK(warm[0].metric_s == 2);
  CHECK(warm[0].model_bytes == Approx(14e9));
}

TEST_CASE("append_eval_campaigns adds one Eval job per dataset chunk and campaign in order")
{
  EvalSpec spec = small_spec();
  spec.datasets = {"short", "long"}; // the spec's order, not the catalogue's
  spec.chunk_s = 600;                // "long" -> 2 chunks
  spec.gpus_per_trial = 2;
  spec.campaigns_s = {100, 50};
  Workload w;
  w.jobs.push_back(Job{}); // a job already there: ids continue after it
  append_eval_campaigns(spec, w);

  REQUIRE(w.jobs.size() == 1 + 2 * 3);
  REQUIRE(w.eval_chunks.size() == 6);
  CHECK(w.eval_campaigns_s == std::vector<double>{100, 50});
  const std::vector<std::string> names{"eval0-short", "eval0-long-0", "eval0-long-1",
                                       "eval1-short", "eval1-long-0", "eval1-long-1"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Job& job = w.jobs[i + 1];
    INFO(job.name);
    CHECK(job.id == i + 1);
    CHECK(job.name == names[i]);
    CHECK(job.user == "eval");
    CHECK(job.type == JobType::Eval);
    CHECK(job.gpus == 2);
    CHECK(job.trace_nodes == 1);
    CHECK(job.cpus == 0);
    CHECK(job.final_state == JobState::Completed);
    CHECK(job.submit_s == (i < 3 ? 100 : 50));
    REQUIRE(job.eval_chunk == static_cast<std::int32_t>(i));
    CHECK(job.eval_trial());
    const EvalChunk& c = w.eval_chunks[static_cast<std::size_t>(job.eval_chunk)];
    CHECK(c.campaign == (i < 3 ? 0u : 1u));
    CHECK(job.duration_s == Approx(c.preprocess_s + c.inference_s + c.metric_s));
  }
  CHECK(w.jobs[1].duration_s == Approx(10 + 100 + 5));
  CHECK(w.jobs[2].duration_s == Approx((30 + 1000 + 60) / 2.0));
  CHECK(w.eval_chunks[1].dataset == 0); // "long" is catalogue entry 0

  // Normalising sorts by submission and rebases campaign times with the jobs.
  normalise_workload(w);
  CHECK(w.jobs.front().submit_s == 0);
}

TEST_CASE("append_eval_campaigns evaluates every catalogue dataset when none are named")
{
  EvalSpec spec = small_spec();
  Workload w;
  append_eval_campaigns(spec, w);
  REQUIRE(w.jobs.size() == 3);
  CHECK(w.jobs[0].name == "eval0-long");
  CHECK(w.jobs[1].name == "eval0-short");
  CHECK(w.jobs[2].name == "eval0-warm");
  CHECK(w.jobs[2].duration_s == Approx(200 + 2)); // cached: no preprocessing
  CHECK(w.eval_campaigns_s == std::vector<double>{0});
}

// --- packing ---------------------------------------------------------------------------------

TEST_CASE("longest_first reaches the optimum where LPT is optimal, with its exact assignment")
{
  const std::vector<double> d{6, 5, 4, 3, 2, 2}; // total 22: 11 per slot is optimal
  const auto a = longest_first(d, 2);
  REQUIRE(a.size() == 2);
  // 6->0, 5->1, 4->1 (5 < 6), 3->0 (6 < 9), 2->0 (tie 9/9: lowest slot), 2->1.
  CHECK(a[0] == std::vector<std::size_t>{0, 3, 4});
  CHECK(a[1] == std::vector<std::size_t>{1, 2, 5});
  CHECK(packed_makespan(a, d) == Approx(11));
}

TEST_CASE("longest_first breaks ties by index and by lowest slot")
{
  const std::vector<double> d{1, 1, 1, 1, 1};
  const auto a = longest_first(d, 2);
  CHECK(a[0] == std::vector<std::size_t>{0, 2, 4});
  CHECK(a[1] == std::vector<std::size_t>{1, 3});
  CHECK(packed_makespan(a, d) == Approx(3));
  // Equal durations out of index order still go in index order.
  const std::vector<double> e{2, 5, 2, 5};
  const auto b = longest_first(e, 2);
  CHECK(b[0] == std::vector<std::size_t>{1, 0});
  CHECK(b[1] == std::vector<std::size_t>{3, 2});
  // The same input always gives the same answer.
  CHECK(longest_first(e, 2) == b);
}

TEST_CASE("longest_first handles more slots than items and no items")
{
  const auto a = longest_first({3, 7}, 4);
  REQUIRE(a.size() == 4);
  CHECK(a[0] == std::vector<std::size_t>{1});
  CHECK(a[1] == std::vector<std::size_t>{0});
  CHECK(a[2].empty());
  CHECK(a[3].empty());
  CHECK(packed_makespan(a, {3, 7}) == 7);
  const auto none = longest_first({}, 3);
  CHECK(none.size() == 3);
  CHECK(packed_makespan(none, {}) == 0);
}
