// Trace statistics, the published Acme targets and their comparison, on hand-computed cases.
#include "models/acme/PublishedAcme.hpp"
#include "models/acme/TraceComparison.hpp"
#include "models/acme/TraceStatistics.hpp"
#include "models/common/InputError.hpp"
#include "models/traces/AcmeTraceReader.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace acmesim;

namespace {

Job job(JobType type, int gpus, double duration_s, JobState state, double submit_s = 0)
{
  Job j;
  j.type = type;
  j.gpus = gpus;
  j.duration_s = duration_s;
  j.final_state = state;
  j.submit_s = submit_s;
  return j;
}

// Five GPU jobs and one CPU job; GPU time 10000 GPU-s: Eval 500 (5%), Pretrain 9500 (95%).
Workload hand_workload()
{
  Workload w;
  w.source = "hand";
  w.jobs = {job(JobType::Eval, 1, 100, JobState::Completed, 0),     // 100 GPU-s
            job(JobType::Eval, 1, 300, JobState::Failed, 10),       // 300
            job(JobType::Eval, 2, 50, JobState::Completed, 20),     // 100
            job(JobType::Pretrain, 8, 1000, JobState::Cancelled, 30), // 8000
            job(JobType::Pretrain, 16, 93.75, JobState::NodeFail, 40), // 1500
            job(JobType::Other, 0, 30, JobState::Completed, 50)};     // CPU-only
  return w;
}

PublishedAcme published_from_repo()
{
  return read_published_acme_directory(std::string(ACMESIM_SOURCE_DIR) + "/configs/acme-published");
}

} // namespace

TEST_CASE("trace statistics: counts, type shares and GPU-time weighting of a hand-built workload")
{
  const TraceStatistics s = compute_trace_statistics(hand_workload());
  CHECK(s.jobs == 6);
  CHECK(s.gpu_jobs == 5);
  CHECK(s.cpu_jobs == 1);
  CHECK(s.span_s == 50);
  CHECK(*s.cpu_job_share_percent() == Approx(100.0 / 6));
  CHECK(s.of(JobType::Other).jobs == 0); // the CPU job is in no distribution
  CHECK(*s.share_of_jobs_percent(JobType::Eval) == Approx(60));
  CHECK(*s.share_of_jobs_percent(JobType::Pretrain) == Approx(40));
  CHECK(*s.share_of_jobs_percent(JobType::SFT) == 0);
  CHECK(s.all_gpu_jobs.gpu_seconds == Approx(10000));
  CHECK(*s.share_of_gpu_time_percent(JobType::Eval) == Approx(5));
  CHECK(*s.share_of_gpu_time_percent(JobType::Pretrain) == Approx(95));
}

TEST_CASE("trace statistics: quantiles, box whiskers and means interpolate like numpy")
{
  const TraceStatistics s = compute_trace_statistics(hand_workload());
  const Distribution& gpus = s.all_gpu_jobs.gpus; // 1 1 2 8 16
  CHECK(*gpus.quantile(0.25) == 1);
  CHECK(*gpus.quantile(0.5) == 2);
  CHECK(*gpus.quantile(0.75) == 8);
  CHECK(*gpus.mean() == Approx(5.6));
  const BoxStats box = *gpus.box();
  CHECK(box.whisker_low == 1);
  CHECK(box.whisker_high == 16); // q3 + 1.5 IQR = 18.5
  CHECK(*s.of(JobType::Eval).gpus.quantile(0.75) == 1.5); // 1 1 2: halfway between ranks 1 and 2

  const Distribution& d = s.all_gpu_jobs.duration_s; // 50 93.75 100 300 1000
  CHECK(*d.quantile(0.25) == 93.75);
  CHECK(*d.quantile(0.5) == 100);
  CHECK(*d.quantile(0.9) == Approx(720));
  CHECK(*d.quantile(1.0) == 1000);
  CHECK(*d.mean() == Approx(308.75));
  CHECK(*d.max() == 1000);
  CHECK_FALSE(d.quantile(1.5));

  // An outlier beyond 1.5 IQR is outside the whiskers; a whisker never ends inside the box.
  const auto outlier = Distribution::from_samples({{1, 0}, {1, 0}, {1, 0}, {1, 0}, {1024, 0}});
  CHECK(outlier.box()->whisker_high == 1);
  const auto gap = Distribution::from_samples({{0, 0}, {10, 0}, {10, 0}, {10, 0}});
  CHECK(gap.box()->q1 == 7.5);
  CHECK(gap.box()->whisker_low == 7.5); // no datum in [3.75, 7.5]: matplotlib falls back to q1
}

TEST_CASE("trace statistics: CDF points by jobs and by GPU time")
{
  const TraceStatistics s = compute_trace_statistics(hand_workload());
  const Distribution& gpus = s.all_gpu_jobs.gpus;
  CHECK(*gpus.cdf_percent(0.5) == 0);
  CHECK(*gpus.cdf_percent(1) == Approx(40));
  CHECK(*gpus.cdf_percent(4) == Approx(60));
  CHECK(*gpus.cdf_percent(8) == Approx(80));
  CHECK(*gpus.cdf_percent(16) == Approx(100));
  CHECK(*gpus.cdf_percent(1, CdfWeighting::GpuTime) == Approx(4));
  CHECK(*gpus.cdf_percent(2, CdfWeighting::GpuTime) == Approx(5));
  CHECK(*gpus.cdf_percent(8, CdfWeighting::GpuTime) == Approx(85));
  const Distribution& d = s.all_gpu_jobs.duration_s;
  CHECK(*d.cdf_percent(64) == Approx(20));
  CHECK(*d.cdf_percent(100) == Approx(60)); // <= x is inclusive
  CHECK(*d.cdf_percent(1024) == Approx(100));
  CHECK(*s.of(JobType::Pretrain).duration_s.cdf_percent(128) == Approx(50));

  const auto gpu_points = default_gpu_count_points(s);
  REQUIRE(gpu_points.size() == 11);
  CHECK(gpu_points.back() == 1024);
  CHECK(default_duration_points(s).size() == 22);
  // A longer job extends the duration points until they cover it.
  Workload w = hand_workload();
  w.jobs.push_back(job(JobType::Eval, 1, 5e6, JobState::Completed));
  CHECK(default_duration_points(compute_trace_statistics(w)).back() == 8388608);
  CHECK(quantile_label(0.25) == "p25");
  CHECK(quantile_label(0.999) == "p99.9");
}

TEST_CASE("trace statistics: final-state shares by count and by GPU time")
{
  const TraceStatistics s = compute_trace_statistics(hand_workload());
  const GroupStatistics& all = s.all_gpu_jobs;
  CHECK(*all.state_share_of_jobs_percent(JobState::Completed) == Approx(40));
  CHECK(*all.state_share_of_jobs_percent(JobState::NodeFail) == Approx(20));
  CHECK(*all.state_share_of_jobs_percent(JobState::Timeout) == 0);
  CHECK(*all.state_share_of_gpu_time_percent(JobState::Completed) == Approx(2));
  CHECK(*all.state_share_of_gpu_time_percent(JobState::Failed) == Approx(3));
  CHECK(*all.state_share_of_gpu_time_percent(JobState::Cancelled) == Approx(80));
  CHECK(*all.state_share_of_gpu_time_percent(JobState::NodeFail) == Approx(15));
  const GroupStatistics& eval = s.of(JobType::Eval);
  CHECK(*eval.state_share_of_gpu_time_percent(JobState::Completed) == Approx(40));
  CHECK(*eval.state_share_of_gpu_time_percent(JobState::Failed) == Approx(60));
  CHECK_FALSE(s.of(JobType::SFT).state_share_of_jobs_percent(JobState::Completed)); // no SFT jobs: undefined
}

TEST_CASE("trace statistics: an empty workload gives zero counts and undefined values, never NaN")
{
  const TraceStatistics s = compute_trace_statistics(Workload{});
  CHECK(s.jobs == 0);
  CHECK(s.gpu_jobs == 0);
  CHECK(s.span_s == 0);
  CHECK_FALSE(s.share_of_jobs_percent(JobType::Eval));
  CHECK_FALSE(s.cpu_job_share_percent());
  CHECK_FALSE(s.all_gpu_jobs.gpus.quantile(0.5));
  CHECK_FALSE(s.all_gpu_jobs.duration_s.mean());
  CHECK_FALSE(s.all_gpu_jobs.gpus.box());
  CHECK_FALSE(s.all_gpu_jobs.gpus.cdf_percent(8));
  CHECK_FALSE(s.all_gpu_jobs.state_share_of_gpu_time_percent(JobState::Completed));
  for (const auto& [name, v] : s.all_gpu_jobs.gpu_summary())
    CHECK_FALSE(v);
  CHECK(default_gpu_count_points(s).size() == 11);

  // Only CPU jobs, or only zero-length GPU jobs: the GPU-time shares are undefined, not 0/0.
  Workload w;
  w.jobs = {job(JobType::Eval, 0, 10, JobState::Completed), job(JobType::Eval, 4, 0, JobState::Cancelled)};
  const TraceStatistics z = compute_trace_statistics(w);
  CHECK(*z.share_of_jobs_percent(JobType::Eval) == 100);
  CHECK_FALSE(z.share_of_gpu_time_percent(JobType::Eval));
  CHECK_FALSE(z.all_gpu_jobs.gpus.cdf_percent(4, CdfWeighting::GpuTime));
  CHECK(*z.all_gpu_jobs.gpus.cdf_percent(4) == 100);

  const ComparisonReport r = compare_with_published(s, published_from_repo(), "seren");
  CHECK_FALSE(r.max_cdf_gap_points());
  CHECK_FALSE(r.max_share_gap_points());
  for (const auto& c : r.cdfs) {
    CHECK_FALSE(c.max_abs_gap_points);
    for (const auto& p : c.points)
      CHECK_FALSE(p.trace_percent);
  }
}

TEST_CASE("trace statistics: the Acme fixture trace read from disk")
{
  const Workload w = read_acme_trace_file(std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces/seren_small.csv",
                                          BadRowPolicy::Error);
  const TraceStatistics s = compute_trace_statistics(w);
  CHECK(s.gpu_jobs == 5);
  CHECK(s.cpu_jobs == 1);
  CHECK(s.of(JobType::Pretrain).gpu_seconds == 57600);
  CHECK(*s.share_of_gpu_time_percent(JobType::Pretrain) == Approx(100.0 * 57600 / 201600));
}

TEST_CASE("trace statistics: a large trace stays consistent")
{
  Workload w;
  const int n = 200000;
  w.jobs.reserve(n);
  for (int i = 0; i < n; ++i)
    w.jobs.push_back(job(enum_values<JobType>()[i % 6], 1 << (i % 11), static_cast<double>((i * 7919) % 100000),
                         enum_values<JobState>()[i % 5], i));
  const TraceStatistics s = compute_trace_statistics(w);
  CHECK(s.gpu_jobs == static_cast<std::size_t>(n));
  double previous = 0;
  for (double x : default_duration_points(s)) {
    const double p = *s.all_gpu_jobs.duration_s.cdf_percent(x);
    CHECK(p >= previous);
    previous = p;
  }
  CHECK(previous == Approx(100));
  CHECK(*s.all_gpu_jobs.gpus.cdf_percent(1024, CdfWeighting::GpuTime) == Approx(100));
}

TEST_CASE("published Acme: the CSVs parse into typed targets per cluster")
{
  const PublishedAcme acme = published_from_repo();
  const PublishedCluster* seren = acme.find("seren");
  const PublishedCluster* kalos = acme.find("Kalos");
  REQUIRE(seren);
  REQUIRE(kalos);
  CHECK(seren->name == "Seren");
  CHECK_FALSE(acme.find("nowhere"));
  // Fig. 4 treemap.
  CHECK(seren->type_share_of_jobs_percent.at(JobType::Eval) == 64.85);
  CHECK(seren->type_share_of_gpu_time_percent.at(JobType::Pretrain) == 69.49);
  CHECK(kalos->type_share_of_gpu_time_percent.at(JobType::Pretrain) == 95.48);
  CHECK(kalos->type_share_of_jobs_percent.count(JobType::SFT) == 0);
  // Fig. 3: the repeated closing vertex at 1024 is dropped, every other x kept as given.
  CHECK(*seren->gpu_count_cdf_by_jobs.at(8) == 96.75);
  CHECK(seren->gpu_count_cdf_by_jobs.x.size() == 24);
  CHECK_FALSE(seren->gpu_count_cdf_by_jobs.at(512));
  CHECK(*seren->gpu_count_cdf_by_gpu_time.at(513) == 69.69);
  CHECK(kalos->gpu_count_cdf_by_gpu_time.x.front() == 7);
  // Fig. 2a and Fig. 6.
  CHECK(seren->duration_cdf.x.size() == 22);
  CHECK(*kalos->duration_cdf.at(128) == 50.47);
  CHECK(*seren->duration_cdf_by_type.at(JobType::Pretrain).at(1024) == 73.42);
  CHECK(kalos->duration_cdf_by_type.size() == 4);
  CHECK(seren->duration_cdf_by_type.size() == 6);
  CHECK(seren->queue_cdf_by_type.at(JobType::Eval).x.size() == 16);
  // Fig. 5 box.
  const BoxStats box = seren->gpu_box_by_type.at(JobType::Pretrain);
  CHECK(box.q1 == 64);
  CHECK(box.median == 128);
  CHECK(box.q3 == 256);
  CHECK(box.whisker_low == 40);
  CHECK(box.whisker_high == 512);
  // cluster_summary.csv (rates become percents).
  CHECK(seren->state_share_of_jobs_percent.at(JobState::Completed) == Approx(49.7));
  CHECK(seren->state_share_of_gpu_time_percent.at(JobState::Cancelled) == Approx(66.4));
  CHECK(kalos->state_share_of_jobs_percent.at(JobState::Failed) == Approx(39.7));
  CHECK(*kalos->summary_value("avg_gpu_num") == 26.77);
  CHECK(*seren->summary_value("med_run_time_gpu") == 122);
  CHECK_FALSE(acme.find("PAI")->summary_value("complete_rate_gpu")); // empty cell
  CHECK(acme.find("philly")->duration_cdf.x.size() == 22);
  CHECK(published_state_bucket(JobState::NodeFail) == JobState::Failed);
  CHECK(published_state_bucket(JobState::Cancelled) == JobState::Cancelled);
}

TEST_CASE("published Acme: a malformed file is an InputError naming file and line")
{
  PublishedAcmeTexts texts;
  texts.cluster_summary = "id,job_num\nSeren,10\n";
  texts.fig2a_duration_cdf = "cluster,x_seconds,cdf_percent\nSeren,1,2\n";
  texts.fig3_gpu_num_cdf = "cluster,weighting,gpu_num_upper,cdf_percent\nSeren,jobs,1,54\nSeren,jobs,eight,96\n";
  texts.fig6_duration_queue_cdf = "cluster,metric,job_type,x_seconds,cdf_percent\nSeren,duration,Training,1,2\n";
  texts.treemap_state_box = "figure,cluster,quantity\n";
  try {
    parse_published_acme(texts);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("fig3_gpu_num_cdf.csv:3") != std::string::npos);
    CHECK(what.find("eight") != std::string::npos);
    CHECK(what.find("fig6_duration_queue_cdf_by_type.csv:2") != std::string::npos);
    CHECK(what.find("Training") != std::string::npos);
    CHECK(what.find("job_type_or_state") != std::string::npos); // missing column
  }
  CHECK_THROWS_AS(read_published_acme_directory("/nonexistent-dir"), InputError);
}

TEST_CASE("published Acme: a word column holding neither of its two words is reported with its value")
{
  PublishedAcmeTexts texts;
  texts.cluster_summary = "id,job_num\nSeren,10\n";
  texts.fig2a_duration_cdf = "cluster,x_seconds,cdf_percent\nSeren,1,2\n";
  texts.fig3_gpu_num_cdf = "cluster,weighting,gpu_num_upper,cdf_percent\nSeren,jobs,1,54\nSeren,hours,x,96\n";
  texts.fig6_duration_queue_cdf = "cluster,metric,job_type,x_seconds,cdf_percent\nSeren,wait,Nope,1,2\n";
  texts.treemap_state_box = "figure,cluster,quantity,job_type_or_state,value\n"
                            "fig4_treemap,Seren,share_of_jobs,Eval,3\n"
                            "fig5_box,Seren,share_of_jobs,Eval,1|2|3|0|4\n";
  std::vector<Diagnostic> ds;
  try {
    parse_published_acme(texts);
  } catch (const InputError& e) {
    ds = e.diagnostics();
  }
  // Nothing else of a row is read once its word is wrong, so each row has one problem; a box
  // row has no quantity to check.
  REQUIRE(ds.size() == 3);
  CHECK(ds[0].to_string() == Diagnostic{"fig3_gpu_num_cdf.csv:3", "weighting", "hours", "expected jobs or gpu_time"}
                                 .to_string());
  CHECK(ds[1].to_string() ==
        Diagnostic{"fig6_duration_queue_cdf_by_type.csv:2", "metric", "wait", "expected duration or queue"}.to_string());
  CHECK(ds[2].to_string() == Diagnostic{"treemap_jobstate_box_summary.csv:2", "quantity", "share_of_jobs",
                                        "expected share_of_gpu_job_count or share_of_gpu_time"}
                                 .to_string());
}

TEST_CASE("trace comparison: gaps in points and the largest gap of each curve on a hand-made case")
{
  PublishedCluster p;
  p.name = "Hand";
  p.duration_cdf = {{64, 128, 1024}, {10, 60, 100}};      // trace: 20, 60, 100
  p.gpu_count_cdf_by_jobs = {{1, 8}, {54.04, 96.75}};     // trace: 40, 80
  p.gpu_count_cdf_by_gpu_time = {{8}, {11.92}};           // trace: 85
  p.duration_cdf_by_type[JobType::Eval] = {{100}, {50}};  // trace: 2 of 3 Eval jobs
  p.duration_cdf_by_type[JobType::SFT] = {{100}, {50}};   // no SFT jobs in the trace
  p.type_share_of_jobs_percent = {{JobType::Eval, 64.85}, {JobType::Pretrain, 0.89}};
  p.type_share_of_gpu_time_percent = {{JobType::Eval, 10}};
  p.state_share_of_jobs_percent = {{JobState::Completed, 49.7}, {JobState::Cancelled, 7.5}, {JobState::Failed, 42.9}};
  p.state_share_of_gpu_time_percent = {{JobState::Failed, 12.4}};
  p.gpu_box_by_type[JobType::Pretrain] = {64, 128, 256, 40, 512};
  p.summary = {{"avg_gpu_num", 2.8}, {"job_num", 100}, {"cpu_job_num", 50}};

  const ComparisonReport r = compare_with_published(compute_trace_statistics(hand_workload()), p);
  CHECK(r.cluster == "Hand");
  REQUIRE(r.cdfs.size() == 5);
  const CdfComparison* dur = r.find_cdf("fig2a_duration");
  REQUIRE(dur);
  CHECK(*dur->max_abs_gap_points == Approx(10));
  CHECK(*dur->max_gap_x == 64);
  CHECK(*dur->points[1].gap_points == Approx(0));
  const CdfComparison* jobs = r.find_cdf("fig3_gpus_by_jobs");
  REQUIRE(jobs);
  CHECK(*jobs->max_abs_gap_points == Approx(16.75));
  CHECK(*jobs->max_gap_x == 8);
  CHECK(*jobs->max_gap_signed_points == Approx(-16.75));
  CHECK(*r.find_cdf("fig3_gpus_by_gpu_time")->max_gap_signed_points == Approx(73.08));
  CHECK(*r.find_cdf("fig6_duration_Eval")->max_abs_gap_points == Approx(200.0 / 3 - 50));
  CHECK(r.find_cdf("fig6_duration_SFT")->type == JobType::SFT);
  CHECK_FALSE(r.find_cdf("fig6_duration_SFT")->max_abs_gap_points);
  CHECK(*r.max_cdf_gap_points() == Approx(73.08));

  // Type shares over the published types only: Eval 3 and Pretrain 2 of 5 jobs.
  REQUIRE(r.type_share_of_jobs.size() == 2);
  CHECK(r.type_share_of_jobs[0].key == "Pretrain");
  CHECK(*r.type_share_of_jobs[0].gap_points == Approx(40 - 0.89));
  CHECK(*r.type_share_of_jobs[1].gap_points == Approx(60 - 64.85));
  REQUIRE(r.type_share_of_gpu_time.size() == 1);
  CHECK(*r.type_share_of_gpu_time[0].trace_percent == Approx(5));
  CHECK(r.unpublished_type_jobs == 0);
  // States: TIMEOUT and NODE_FAIL count as FAILED.
  REQUIRE(r.state_share_of_jobs.size() == 3);
  CHECK(r.state_share_of_jobs[0].key == "COMPLETED");
  CHECK(*r.state_share_of_jobs[0].gap_points == Approx(40 - 49.7));
  CHECK(r.state_share_of_jobs[1].key == "CANCELLED");
  CHECK(*r.state_share_of_jobs[2].trace_percent == Approx(40));
  REQUIRE(r.state_share_of_gpu_time.size() == 1);
  CHECK(*r.state_share_of_gpu_time[0].trace_percent == Approx(18));
  CHECK(*r.max_share_gap_points() == Approx(40 - 0.89));
  // Box and summary values.
  REQUIRE(r.gpu_boxes.size() == 1);
  CHECK(r.gpu_boxes[0].trace->median == 12);
  REQUIRE(r.summary.size() == 2);
  CHECK(r.summary[0].key == "cpu_job_share_percent");
  CHECK(*r.summary[0].published == Approx(50));
  CHECK(*r.summary[1].ratio == Approx(2.0));

  // A type the figure leaves out does not dilute the shares of the others.
  Workload w = hand_workload();
  w.jobs.push_back(job(JobType::SFT, 4, 10, JobState::Completed));
  const ComparisonReport with_sft = compare_with_published(compute_trace_statistics(w), p);
  CHECK(with_sft.unpublished_type_jobs == 1);
  CHECK(*with_sft.type_share_of_jobs[1].trace_percent == Approx(60));
  CHECK_THROWS_AS(compare_with_published(compute_trace_statistics(w), PublishedAcme{}, "seren"),
                  std::invalid_argument);
}

TEST_CASE("trace comparison: a trace against the real Seren targets has every curve and share")
{
  const Workload w = read_acme_trace_file(std::string(ACMESIM_SOURCE_DIR) + "/tests/data/traces/seren_small.csv",
                                          BadRowPolicy::Error);
  const ComparisonReport r = compare_with_published(compute_trace_statistics(w), published_from_repo(), "seren");
  CHECK(r.cdfs.size() == 9); // Fig. 2a, Fig. 3 twice, Fig. 6 for six types
  CHECK(r.type_share_of_jobs.size() == 6);
  CHECK(r.state_share_of_gpu_time.size() == 3);
  CHECK(r.gpu_boxes.size() == 6);
  // Fig. 3 at 8 GPUs: 3 of the 5 GPU jobs have <= 8 GPUs.
  const CdfComparison* jobs = r.find_cdf("fig3_gpus_by_jobs");
  REQUIRE(jobs);
  const auto at8 = std::find_if(jobs->points.begin(), jobs->points.end(), [](const auto& p) { return p.x == 8; });
  REQUIRE(at8 != jobs->points.end());
  CHECK(*at8->trace_percent == Approx(60));
  CHECK(*at8->gap_points == Approx(60 - 96.75));
  for (const auto& c : r.cdfs)
    if (c.max_abs_gap_points)
      CHECK(std::isfinite(*c.max_abs_gap_points));
}

TEST_CASE("queueing delay: recorded waits per type, and their comparison with Fig. 6b and the summary")
{
  Workload w = hand_workload();
  // The three evaluation jobs waited 0, 1 and 5 s, one pretraining job 100 s; the other
  // pretraining job has no recorded wait and counts in no wait statistic.
  w.jobs[0].recorded_wait_s = 0;
  w.jobs[1].recorded_wait_s = 1;
  w.jobs[2].recorded_wait_s = 5;
  w.jobs[3].recorded_wait_s = 100;
  const TraceStatistics s = compute_trace_statistics(w);
  const GroupStatistics& eval = s.of(JobType::Eval);
  CHECK(eval.wait_s.jobs() == 3);
  CHECK(*eval.wait_s.mean() == Approx(2));
  CHECK(*eval.wait_s.quantile(0.5) == 1);
  CHECK(s.of(JobType::Pretrain).wait_s.jobs() == 1);
  CHECK(s.all_gpu_jobs.wait_s.jobs() == 4);
  CHECK(*s.all_gpu_jobs.wait_s.mean() == Approx(26.5));
  CHECK(s.of(JobType::SFT).wait_summary().empty());
  const auto summary = eval.wait_summary();
  REQUIRE(summary.size() == 6); // mean, p50, p75, p90, p99, max
  CHECK(summary.back().first == "max");
  CHECK(*summary.back().second == 5);

  const ComparisonReport r = compare_with_published(s, published_from_repo(), "seren");
  // Only the types with recorded waits are compared: Eval and Pretrain.
  REQUIRE(r.queue_cdfs.size() == 2);
  const CdfComparison& q = r.queue_cdfs[1]; // in type order: Pretrain, Eval
  CHECK(q.id == "fig6_queue_Eval");
  REQUIRE(q.points.size() == 16);
  CHECK(q.points[0].x == 1);
  CHECK(*q.points[0].trace_percent == Approx(200.0 / 3)); // 0 and 1 s are <= 1 s
  CHECK(*q.points[0].gap_points == Approx(200.0 / 3 - 47.62));
  CHECK(*q.points[3].trace_percent == Approx(100)); // <= 8 s
  CHECK(r.max_queue_gap_points().has_value());
  // The workload's curves do not include the queue curves.
  CHECK(r.cdfs.size() == 9);
  const auto value = [&](const std::string& key) {
    return std::find_if(r.summary.begin(), r.summary.end(), [&](const auto& v) { return v.key == key; });
  };
  REQUIRE(value("avg_que_time_gpu") != r.summary.end());
  CHECK(*value("avg_que_time_gpu")->ratio == Approx(26.5 / 445.984));
  CHECK(*value("med_que_time_gpu")->trace == Approx(3)); // between 1 and 5 s

  // A trace without recorded waits has no queue comparison at all.
  const ComparisonReport none = compare_with_published(compute_trace_statistics(hand_workload()),
                                                       published_from_repo(), "seren");
  CHECK(none.queue_cdfs.empty());
  CHECK_FALSE(none.max_queue_gap_points().has_value());
  CHECK(std::none_of(none.summary.begin(), none.summary.end(),
                     [](const auto& v) { return v.key == "avg_que_time_gpu"; }));
}
