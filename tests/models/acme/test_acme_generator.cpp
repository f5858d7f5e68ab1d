// The Acme-calibrated generator against the published distributions it is fitted to.
#include "models/acme/AcmeGenerator.hpp"
#include "models/acme/TraceComparison.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

using namespace acmesim;

namespace {

const PublishedAcme& published()
{
  static const PublishedAcme acme =
      read_published_acme_directory(std::string(ACMESIM_SOURCE_DIR) + "/configs/acme-published");
  return acme;
}

Workload generate(const std::string& preset, double days, std::uint64_t seed)
{
  AcmeGeneratorSpec spec;
  spec.days = days;
  return generate_acme_preset(published(), preset, spec, seed);
}

ComparisonReport compare(const Workload& w, const std::string& cluster)
{
  return compare_with_published(compute_trace_statistics(w), *published().find(cluster));
}

void require_curves(const ComparisonReport& r)
{
  // Fig. 2a, Fig. 3 (jobs, GPU time) and Fig. 6 per published type are all evaluated.
  CHECK(r.find_cdf("fig2a_duration"));
  CHECK(r.find_cdf("fig3_gpus_by_gpu_time"));
  CHECK(r.cdfs.size() >= 7);
  for (const auto& c : r.cdfs) {
    INFO(c.id);
    CHECK(c.max_abs_gap_points.has_value());
  }
}

// The load the trace offers, against the published GPU time per day of the cluster's trace.
double gpu_time_ratio(const ComparisonReport& r)
{
  for (const ValueComparison& v : r.summary)
    if (v.key == "gpu_hours_per_day")
      return v.ratio.value();
  FAIL("no gpu_hours_per_day in the comparison");
  return 0;
}

// Fig. 5: every published type's quartiles of GPUs per job, exactly.
void require_box_quartiles(const ComparisonReport& r)
{
  CHECK(r.gpu_boxes.size() >= 4);
  for (const BoxComparison& b : r.gpu_boxes) {
    INFO(to_string(b.type));
    REQUIRE(b.trace.has_value());
    CHECK(b.trace->q1 == b.published.q1);
    CHECK(b.trace->median == b.published.median);
    CHECK(b.trace->q3 == b.published.q3);
  }
}

} // namespace

TEST_CASE("acme calibration meets every published sum it is fitted to")
{
  // Seren's published sums can all be met together; Kalos' fit stops at about 2% relative
  // miss on one of them (the generated Kalos trace is within the targets all the same, below).
  for (const auto& [cluster, residual] : std::map<std::string, double>{{"seren", 1e-3}, {"kalos", 0.03}}) {
    INFO(cluster);
    const AcmeCalibration c = calibrate_to_published(*published().find(cluster));
    CHECK(c.max_residual < residual);
    double total = 0;
    for (const auto& cell : c.cells)
      total += cell.share;
    CHECK(total == Approx(1.0));
  }
}

// The target: a six-month Seren-like trace within 2 points of every published CDF
// point and 1 point of every type and state share.
TEST_CASE("acme generator: six months of Seren match the published distributions")
{
  const Workload w = generate("seren", 183, 1);
  const ComparisonReport r = compare(w, "seren");
  require_curves(r);
  CHECK(r.max_cdf_gap_points().value() <= 2.0);
  CHECK(r.max_share_gap_points().value() <= 1.0);
  // The load: the published GPU time over the trace span, within 5% (not the summary's job
  // count, which would offer about 40% more).
  CHECK(gpu_time_ratio(r) == Approx(1.0).margin(0.05));
  require_box_quartiles(r);
  // Evaluation jobs are small (Fig. 5: 1-8 GPUs): the few beyond the box that Fig. 3 and 4
  // force outside pretraining (0.05% of jobs above 256 GPUs) mostly go to heavier types.
  std::size_t large_evals = 0, evals = 0;
  for (const Job& j : w.jobs)
    if (j.type == JobType::Eval) {
      ++evals;
      large_evals += j.gpus >= 256 ? 1 : 0;
    }
  CHECK(large_evals < evals / 5000);
}

TEST_CASE("acme generator: Kalos over its trace span matches the published distributions")
{
  const ComparisonReport r = compare(generate("kalos", 107, 2), "kalos");
  require_curves(r);
  CHECK(r.max_cdf_gap_points().value() <= 2.0);
  CHECK(r.max_share_gap_points().value() <= 1.0);
  CHECK(gpu_time_ratio(r) == Approx(1.0).margin(0.05));
  require_box_quartiles(r);
}

// A month holds a tenth of the large jobs: the rounding of a few multi-day 1,024-GPU jobs
// moves GPU-time shares more (measured up to 3.7 and 1.4 points over seeds 1-3).
TEST_CASE("acme generator: one month of Seren stays within a month-sized tolerance")
{
  const ComparisonReport r = compare(generate("seren", 30, 3), "seren");
  CHECK(r.max_cdf_gap_points().value() <= 5.0);
  CHECK(r.max_share_gap_points().value() <= 2.0);
}

TEST_CASE("acme generator: deterministic for a seed, different across seeds")
{
  const Workload a = generate("kalos", 10, 7), b = generate("kalos", 10, 7), c = generate("kalos", 10, 8);
  REQUIRE(a.jobs.size() == b.jobs.size());
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    CHECK(a.jobs[i].submit_s == b.jobs[i].submit_s);
    CHECK(a.jobs[i].duration_s == b.jobs[i].duration_s);
    CHECK(a.jobs[i].gpus == b.jobs[i].gpus);
    CHECK(a.jobs[i].user == b.jobs[i].user);
  }
  bool differs = a.jobs.size() != c.jobs.size();
  for (std::size_t i = 0; !differs && i < a.jobs.size(); ++i)
    differs = a.jobs[i].submit_s != c.jobs[i].submit_s;
  CHECK(differs);
  // "acme" is the Seren and Kalos traces together, names prefixed by cluster.
  const Workload both = generate("acme", 10, 7);
  std::size_t kalos = 0;
  for (const Job& j : both.jobs)
    kalos += j.name.rfind("kalos-", 0) == 0 ? 1 : 0;
  CHECK(kalos == a.jobs.size());
}

TEST_CASE("acme generator: arrivals follow a daily rhythm, evaluations come in batches, pretraining in campaigns")
{
  AcmeGeneratorSpec spec;
  spec.days = 28;
  const Workload w = generate_acme_preset(published(), "seren", spec, 5);
  // Daily rhythm (peak at 15:00, trough at 03:00 with amplitude 0.5): about 3x more arrivals
  // at the peak hour than at the trough.
  std::map<int, int> by_hour;
  std::map<double, std::set<std::string>> eval_batches; // users of the evaluations submitted at a time
  std::map<double, int> eval_jobs;
  for (const Job& j : w.jobs) {
    by_hour[static_cast<int>(std::fmod(j.submit_s, 86400) / 3600)]++;
    if (j.type == JobType::Eval) {
      eval_batches[j.submit_s].insert(j.user);
      eval_jobs[j.submit_s]++;
    }
  }
  CHECK(by_hour[15] > 2 * by_hour[3]);
  // Evaluation batches of about 20 jobs (geometric): far fewer distinct times than jobs, and a
  // batch is one user's.
  std::size_t evals = 0;
  for (const auto& [t, n] : eval_jobs)
    evals += static_cast<std::size_t>(n);
  CHECK(static_cast<double>(evals) / static_cast<double>(eval_batches.size()) > 10);
  std::size_t one_user = 0;
  for (const auto& [t, users] : eval_batches)
    one_user += users.size() == 1 ? 1 : 0;
  CHECK(one_user == eval_batches.size());
  // Pretraining campaigns: each user's pretraining jobs run one after another (none submitted
  // before the previous ends), and there are just enough campaigns for them to be busy about
  // 80% of the 28 days.
  std::map<std::string, std::vector<const Job*>> campaigns;
  double pretrain_s = 0;
  for (const Job& j : w.jobs)
    if (j.type == JobType::Pretrain) {
      campaigns[j.user].push_back(&j);
      pretrain_s += j.duration_s;
    }
  CHECK(campaigns.size() == static_cast<std::size_t>(std::ceil(pretrain_s / (28 * 86400 * 0.8))));
  // A campaign trains at one scale: the campaigns' GPU counts are ranges that do not overlap.
  std::vector<std::pair<int, int>> scales;
  for (const auto& [user, jobs] : campaigns) {
    INFO(user);
    CHECK(jobs.size() > 10);
    int lo = jobs.front()->gpus, hi = lo;
    for (std::size_t i = 1; i < jobs.size(); ++i) {
      CHECK(jobs[i]->submit_s >= jobs[i - 1]->submit_s + jobs[i - 1]->duration_s - 1e-6);
      lo = std::min(lo, jobs[i]->gpus);
      hi = std::max(hi, jobs[i]->gpus);
    }
    scales.emplace_back(lo, hi);
  }
  std::sort(scales.begin(), scales.end());
  for (std::size_t i = 1; i < scales.size(); ++i)
    CHECK(scales[i].first >= scales[i - 1].second);
}

TEST_CASE("acme generator: load_scale scales every type's jobs and GPU time, pretraining campaigns in number")
{
  AcmeGeneratorSpec spec;
  spec.days = 28;
  const Workload base = generate_acme_preset(published(), "kalos", spec, 3);
  spec.load_scale = 1.5;
  const Workload scaled = generate_acme_preset(published(), "kalos", spec, 3);
  std::map<JobType, double> base_gpu_s, scaled_gpu_s;
  std::map<JobType, std::size_t> base_count, scaled_count;
  std::set<std::string> base_campaigns, scaled_campaigns;
  for (const Job& j : base.jobs) {
    base_gpu_s[j.type] += j.gpus * j.duration_s;
    base_count[j.type]++;
    if (j.type == JobType::Pretrain)
      base_campaigns.insert(j.user);
  }
  for (const Job& j : scaled.jobs) {
    scaled_gpu_s[j.type] += j.gpus * j.duration_s;
    scaled_count[j.type]++;
    if (j.type == JobType::Pretrain)
      scaled_campaigns.insert(j.user);
  }
  for (const auto& [type, gpu_s] : base_gpu_s) {
    INFO(to_string(type));
    // Counts per (type, GPUs, state) group are apportioned to within one job, so each type is
    // within a few jobs of 1.5 times; GPU time within a few of its heaviest jobs.
    CHECK(std::abs(static_cast<double>(scaled_count[type]) - 1.5 * static_cast<double>(base_count[type])) <=
          0.02 * static_cast<double>(base_count[type]) + 3);
    if (type != JobType::Other) // CPU-only jobs hold no GPU time
      CHECK(scaled_gpu_s[type] / gpu_s == Approx(1.5).epsilon(0.05));
  }
  CHECK(scaled_campaigns.size() > base_campaigns.size());
}
