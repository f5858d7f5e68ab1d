#include "models/acme/PublishedAcme.hpp"

#include "models/common/CsvTable.hpp"
#include "models/common/InputError.hpp"
#include "models/common/TextFile.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace acmesim {

namespace {

// The job type a cell names; reported (and nullopt) if none.
std::optional<JobType> job_type(CsvTable& table, const CsvTable::Row& row, std::size_t col)
{
  const auto t = parse_enum<JobType>(row.cells[col]);
  if (!t)
    table.error(row.line, table.header()[col], std::string(row.cells[col]),
                "expected a job type: " + enum_name_list<JobType>());
  return t;
}

PublishedCluster& cluster(PublishedAcme& acme, std::string_view name)
{
  auto& c = acme.clusters[std::string(name)];
  c.name = name;
  c.trace_span_days = name == "Seren" ? 184 : name == "Kalos" ? 107 : 0;
  return c;
}

void add_point(PublishedCdf& cdf, double x, double percent)
{
  // matplotlib closes a step curve by repeating its last vertex; a repeated point adds nothing.
  if (!cdf.x.empty() && cdf.x.back() == x && cdf.percent.back() == percent)
    return;
  cdf.x.push_back(x);
  cdf.percent.push_back(percent);
}

void parse_cluster_summary(PublishedAcme& acme, std::string_view text, DiagnosticList& diags)
{
  for_each_row("cluster_summary.csv", text, diags, {"id"}, [&](CsvTable& t, const CsvTable::Row& row, const auto& c) {
    const std::size_t id = c[0];
    auto& cl = cluster(acme, row.cells[id]);
    for (std::size_t col = 0; col < row.cells.size(); ++col)
      if (col != id && !row.cells[col].empty())
        if (const auto v = t.number(row, col))
          cl.summary[t.header()[col]] = *v;
    const std::pair<JobState, const char*> states[] = {
        {JobState::Completed, "complete"}, {JobState::Cancelled, "cancel"}, {JobState::Failed, "fail"}};
    for (const auto& [state, prefix] : states) {
      if (const auto v = cl.summary_value(std::string(prefix) + "_rate_gpu"))
        cl.state_share_of_jobs_percent[state] = 100 * *v;
      if (const auto v = cl.summary_value(std::string(prefix) + "_rate_gpu_time"))
        cl.state_share_of_gpu_time_percent[state] = 100 * *v;
    }
  });
}

void parse_fig2a(PublishedAcme& acme, std::string_view text, DiagnosticList& diags)
{
  for_each_row("fig2a_gpu_job_duration_cdf_all_traces.csv", text, diags, {"cluster", "x_seconds", "cdf_percent"},
               [&](CsvTable& t, const CsvTable::Row& row, const auto& c) {
                 const auto x = t.number(row, c[1]), p = t.number(row, c[2]);
                 if (x && p)
                   add_point(cluster(acme, row.cells[c[0]]).duration_cdf, *x, *p);
               });
}

void parse_fig3(PublishedAcme& acme, std::string_view text, DiagnosticList& diags)
{
  for_each_row("fig3_gpu_num_cdf.csv", text, diags, {"cluster", "weighting", "gpu_num_upper", "cdf_percent"},
               [&](CsvTable& t, const CsvTable::Row& row, const auto& c) {
                 const auto weighting = t.one_of(row, c[1], "jobs", "gpu_time");
                 if (!weighting)
                   return;
                 const auto x = t.number(row, c[2]), p = t.number(row, c[3]);
                 if (!x || !p)
                   return;
                 auto& cl = cluster(acme, row.cells[c[0]]);
                 add_point(*weighting == 0 ? cl.gpu_count_cdf_by_jobs : cl.gpu_count_cdf_by_gpu_time, *x, *p);
               });
}

void parse_fig6(PublishedAcme& acme, std::string_view text, DiagnosticList& diags)
{
  for_each_row("fig6_duration_queue_cdf_by_type.csv", text, diags,
               {"cluster", "metric", "job_type", "x_seconds", "cdf_percent"},
               [&](CsvTable& t, const CsvTable::Row& row, const auto& c) {
                 const auto metric = t.one_of(row, c[1], "duration", "queue");
                 if (!metric)
                   return;
                 const auto type = job_type(t, row, c[2]);
                 const auto x = t.number(row, c[3]), p = t.number(row, c[4]);
                 if (!type || !x || !p)
                   return;
                 auto& cl = cluster(acme, row.cells[c[0]]);
                 add_point((*metric == 0 ? cl.duration_cdf_by_type : cl.queue_cdf_by_type)[*type], *x, *p);
               });
}

std::optional<BoxStats> parse_box(CsvTable& t, const CsvTable::Row& row, std::size_t col)
{
  // "q1|median|q3|whisker_low|whisker_high"
  std::array<double, 5> v{};
  std::string_view rest = row.cells[col];
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::size_t bar = rest.find('|');
    const std::string_view part = rest.substr(0, bar);
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v[i]);
    if (part.empty() || ec != std::errc{} || ptr != part.data() + part.size() ||
        (bar == std::string_view::npos) != (i + 1 == v.size())) {
      t.error(row.line, "value", std::string(row.cells[col]), "expected q1|median|q3|whisker_low|whisker_high");
      return std::nullopt;
    }
    rest.remove_prefix(bar == std::string_view::npos ? rest.size() : bar + 1);
  }
  return BoxStats{v[0], v[1], v[2], v[3], v[4]};
}

// One row of the treemap file: a Fig. 5 box, a Fig. 4 treemap share or a job-state bar.
void parse_treemap_row(PublishedAcme& acme, CsvTable& t, const CsvTable::Row& row, const std::array<std::size_t, 5>& c)
{
  const std::string_view figure = row.cells[c[0]], key = row.cells[c[3]];
  auto& cl = cluster(acme, row.cells[c[1]]);
  if (figure == "fig5_box") {
    const auto type = job_type(t, row, c[3]);
    const auto box = parse_box(t, row, c[4]);
    if (type && box)
      cl.gpu_box_by_type[*type] = *box;
    return;
  }
  const auto quantity = t.one_of(row, c[2], "share_of_gpu_job_count", "share_of_gpu_time");
  if (!quantity)
    return;
  const bool by_count = *quantity == 0;
  if (figure == "fig4_treemap") {
    const auto type = job_type(t, row, c[3]);
    const auto v = t.number(row, c[4]);
    if (type && v)
      (by_count ? cl.type_share_of_jobs_percent : cl.type_share_of_gpu_time_percent)[*type] = *v;
  } else if (figure == "bar_job_state") {
    const auto state = parse_enum<JobState>(key);
    if (!state) {
      t.error(row.line, "job_type_or_state", std::string(key), "expected a job state: " + enum_name_list<JobState>());
      return;
    }
    // The bar chart is drawn from cluster_summary.csv, which has more digits: it only fills gaps.
    if (const auto v = t.number(row, c[4]))
      (by_count ? cl.state_share_of_jobs_percent : cl.state_share_of_gpu_time_percent).emplace(*state, *v);
  }
  // Other figures may be added to the file later; they are not targets of this model.
}

void parse_treemap(PublishedAcme& acme, std::string_view text, DiagnosticList& diags)
{
  for_each_row("treemap_jobstate_box_summary.csv", text, diags,
               {"figure", "cluster", "quantity", "job_type_or_state", "value"},
               [&](CsvTable& t, const CsvTable::Row& row, const auto& c) { parse_treemap_row(acme, t, row, c); });
}

std::string lowercase(std::string_view s)
{
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return out;
}

} // namespace

std::optional<double> PublishedCluster::summary_value(const std::string& column) const
{
  const auto it = summary.find(column);
  if (it == summary.end())
    return std::nullopt;
  return it->second;
}

std::optional<double> PublishedCluster::gpu_seconds() const
{
  const auto complete = summary_value("complete_gpu_time"), cancel = summary_value("cancel_gpu_time"),
             fail = summary_value("fail_gpu_time");
  if (!complete || !cancel || !fail)
    return std::nullopt;
  return *complete + *cancel + *fail;
}

std::optional<double> PublishedCluster::gpu_seconds_per_day() const
{
  const auto total = gpu_seconds();
  if (!total || trace_span_days <= 0)
    return std::nullopt;
  return *total / trace_span_days;
}

const PublishedCluster* PublishedAcme::find(std::string_view name) const
{
  const std::string wanted = lowercase(name);
  for (const auto& [n, c] : clusters)
    if (lowercase(n) == wanted)
      return &c;
  return nullptr;
}

PublishedAcme parse_published_acme(const PublishedAcmeTexts& texts)
{
  PublishedAcme acme;
  DiagnosticList diags;
  // cluster_summary first: its state shares take precedence over the bar chart's rounded ones.
  parse_cluster_summary(acme, texts.cluster_summary, diags);
  parse_fig2a(acme, texts.fig2a_duration_cdf, diags);
  parse_fig3(acme, texts.fig3_gpu_num_cdf, diags);
  parse_fig6(acme, texts.fig6_duration_queue_cdf, diags);
  parse_treemap(acme, texts.treemap_state_box, diags);
  diags.throw_if_any();
  return acme;
}

PublishedAcme read_published_acme_directory(const std::string& directory)
{
  std::array<std::string, PUBLISHED_ACME_FILES.size()> texts;
  DiagnosticList diags;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::string path = directory + "/" + std::string(PUBLISHED_ACME_FILES[i]);
    auto text = read_text_file(path);
    if (!text) {
      diags.add(path, "", "", "cannot open the file");
      continue;
    }
    texts[i] = std::move(*text);
  }
  diags.throw_if_any();
  return parse_published_acme({texts[0], texts[1], texts[2], texts[3], texts[4]});
}

JobState published_state_bucket(JobState state)
{
  return (state == JobState::Timeout || state == JobState::NodeFail) ? JobState::Failed : state;
}

} // namespace acmesim
