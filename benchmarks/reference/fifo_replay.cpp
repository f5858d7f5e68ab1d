// The cheapest honest replay of an Acme CSV trace on the `acme` preset under `fifo` with `pack`
// placement, written to measure acmesim against (benchmarks/reference.sh, benchmarks/README.md).
//
// It does the work acmesim does in that run and nothing more: read the trace, order the jobs by
// submission, replay them in strict FIFO order (the queue head blocks everyone behind it) on the
// two pods' nodes with the same placement rules, and write one row per job with its start, end
// and nodes. No configuration, no validation beyond what parsing needs, no statistics. The
// cluster is fixed: Seren (286 nodes, 20 per leaf) and Kalos (302 nodes, 5 per leaf), 8 GPUs a
// node, as configs/clusters/ declares them.
//
// Placement, as sim/policies/PackPlacement.cpp decides it:
// - a job of at most 8 GPUs goes on the node with the fewest free GPUs that hold it (lowest node,
//   first pod on ties);
// - a larger job takes ceil(gpus / 8) wholly free nodes of one pod: the leaf with the fewest
//   wholly free nodes that suffices, else the leaves with the most wholly free nodes first; of
//   the pods, the one needing the fewest leaves (the first on ties);
// - a job without GPUs starts at submission; a job larger than any pod never starts.
//
// With --whole-rows it also reads each job's user, type, CPUs, state and recorded wait (queue), and
// writes acmesim's jobs.csv itself, all 27 columns, byte for byte (for a run without failures, where the fault
// columns hold zeros): the same replay with the same output, so what is left between the two is
// everything acmesim does besides.
//
// Usage: fifo_replay TRACE.csv OUT.csv [--whole-rows]
#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

constexpr int NODE_GPUS = 8;

struct Pod {
  const char* name;
  int first_node;
  int nodes;
  int nodes_per_leaf;
};
constexpr Pod PODS[] = {{"seren", 0, 286, 20}, {"kalos", 286, 302, 5}};
constexpr int NODES = 588;

// Text kept in one string for all jobs (names, users): where it starts and its length.
struct TextAt {
  std::uint32_t at = 0;
  std::uint32_t size = 0;
};

// Appends `text` to `texts`, returning where it is.
TextAt keep(std::string& texts, std::string_view text)
{
  const TextAt kept{static_cast<std::uint32_t>(texts.size()), static_cast<std::uint32_t>(text.size())};
  texts.append(text);
  return kept;
}

void append(std::string& out, const std::string& texts, TextAt text) { out.append(texts, text.at, text.size); }

struct Job {
  TextAt name; // in the names read with the trace
  double submit = 0;
  double duration = 0;
  int gpus = 0;
  double start = -1;
  double end = -1;
  int pod = -1;
  int first_part = 0; // nodes in `parts` [first_part, first_part + node_count)
  int node_count = 0;
  std::uint32_t row = 0; // its row in the trace, in what was padding
};
static_assert(sizeof(Job) == 64, "--whole-rows must not make the short form's jobs larger");

[[noreturn]] void die(const std::string& message)
{
  std::fprintf(stderr, "fifo_replay: %s\n", message.c_str());
  std::exit(2);
}

// What only --whole-rows reads of a job, by its row in the trace.
struct RowDetails {
  TextAt user; // in the names, as the job's name
  int cpus = 0;
  double recorded_wait = -1; // the queue column; -1 when empty
  std::uint8_t type = 0; // in the labels (the few types and states a trace has)
  std::uint8_t state = 0;
};

// What --whole-rows reads: each row's details, and the distinct values of the trace's type and
// state columns, each kept once.
struct WholeRows {
  std::vector<RowDetails> rows;
  std::vector<std::string> labels;
  bool recorded_waits = false; // some job's queue column holds a wait
  std::uint8_t label(std::string_view value)
  {
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (labels[i] == value)
        return static_cast<std::uint8_t>(i);
    if (labels.size() > UINT8_MAX)
      die("more than 256 distinct types and states");
    labels.emplace_back(value);
    return static_cast<std::uint8_t>(labels.size() - 1);
  }
};

int digits(std::string_view s, std::size_t pos, std::size_t n)
{
  int value = 0;
  for (std::size_t i = pos; i < pos + n; ++i)
    value = value * 10 + (s[i] - '0');
  return value;
}

// "YYYY-MM-DD HH:MM:SS[.fff][+HH:MM]" to seconds since the epoch, as the Acme CSV writes it.
double timestamp(std::string_view s)
{
  if (s.size() < 19)
    die("bad timestamp " + std::string(s));
  const std::chrono::year_month_day date{std::chrono::year{digits(s, 0, 4)},
                                         std::chrono::month{static_cast<unsigned>(digits(s, 5, 2))},
                                         std::chrono::day{static_cast<unsigned>(digits(s, 8, 2))}};
  const int clock = digits(s, 11, 2) * 3600 + digits(s, 14, 2) * 60 + digits(s, 17, 2);
  std::size_t pos = 19;
  double fraction = 0;
  if (pos < s.size() && s[pos] == '.')
    for (double scale = 0.1; ++pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; scale /= 10)
      fraction += (s[pos] - '0') * scale;
  int offset = 0;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-'))
    offset = (s[pos] == '-' ? -1 : 1) * (digits(s, pos + 1, 2) * 3600 + digits(s, pos + 4, 2) * 60);
  const auto days = std::chrono::sys_days{date}.time_since_epoch().count();
  return static_cast<double>(days) * 86400.0 + (clock - offset) + fraction;
}

template <class T> T number(std::string_view s)
{
  T value{};
  if (std::from_chars(s.data(), s.data() + s.size(), value).ec != std::errc{})
    die("bad number " + std::string(s));
  return value;
}

// Reads the trace a block at a time; job names go to `names` (a Job's name indexes it). With
// `whole`, also each job's user (into `names`), type, CPUs and state.
std::vector<Job> read_jobs(const char* path, std::string& names, WholeRows* whole)
{
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr)
    die(std::string("cannot open ") + path);
  std::vector<Job> jobs;
  std::vector<std::string_view> fields;
  int id_col = -1, gpu_col = -1, submit_col = -1, duration_col = -1;
  int user_col = -1, type_col = -1, cpu_col = -1, state_col = -1, queue_col = -1;
  bool header = true;
  std::string block;
  std::size_t kept = 0; // bytes of an unfinished line at the start of `block`
  for (bool done = false; !done;) {
    block.resize(kept + (1 << 20));
    const std::size_t n = std::fread(block.data() + kept, 1, block.size() - kept, f);
    done = n == 0;
    block.resize(kept + n);
    if (done && !block.empty() && block.back() != '\n')
      block += '\n'; // a last line without its newline
    std::size_t line_start = 0;
    for (std::size_t line_end; (line_end = block.find('\n', line_start)) != std::string::npos;
         line_start = line_end + 1) {
      const std::string_view line(block.data() + line_start, line_end - line_start);
      fields.clear();
      for (std::size_t from = 0;;) {
        const std::size_t comma = line.find(',', from);
        fields.push_back(line.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from));
        if (comma == std::string_view::npos)
          break;
        from = comma + 1;
      }
      if (header) {
        header = false;
        for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
          const std::string_view name = fields[static_cast<std::size_t>(i)];
          id_col = name == "job_id" ? i : id_col;
          gpu_col = name == "gpu_num" ? i : gpu_col;
          submit_col = name == "submit_time" ? i : submit_col;
          duration_col = name == "duration" ? i : duration_col;
          user_col = name == "user" ? i : user_col;
          type_col = name == "type" ? i : type_col;
          cpu_col = name == "cpu_num" ? i : cpu_col;
          state_col = name == "state" ? i : state_col;
          queue_col = name == "queue" ? i : queue_col;
        }
        if (std::min({id_col, gpu_col, submit_col, duration_col}) < 0)
          die("expected job_id, gpu_num, submit_time and duration columns");
        if (whole != nullptr && std::min({user_col, type_col, cpu_col, state_col, queue_col}) < 0)
          die("expected user, type, cpu_num, state and queue columns");
        continue;
      }
      if (line.empty())
        continue;
      const auto field = [&fields](int col) { return fields.at(static_cast<std::size_t>(col)); };
      Job job;
      job.name = keep(names, field(id_col));
      job.gpus = number<int>(field(gpu_col));
      job.submit = timestamp(field(submit_col));
      job.duration = number<double>(field(duration_col));
      job.row = static_cast<std::uint32_t>(jobs.size());
      if (whole != nullptr) {
        RowDetails details;
        details.user = keep(names, field(user_col));
        details.cpus = number<int>(field(cpu_col));
        details.type = whole->label(field(type_col));
        details.state = whole->label(field(state_col));
        if (!field(queue_col).empty())
          details.recorded_wait = number<double>(field(queue_col));
        whole->recorded_waits = whole->recorded_waits || details.recorded_wait >= 0;
        whole->rows.push_back(details);
      }
      jobs.push_back(job);
    }
    kept = block.size() - line_start;
    block.erase(0, line_start);
  }
  std::fclose(f);
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.submit < b.submit; });
  const double origin = jobs.empty() ? 0 : jobs.front().submit;
  for (Job& job : jobs)
    job.submit -= origin;
  return jobs;
}

class Cluster {
public:
  Cluster()
  {
    free_.assign(NODES, NODE_GPUS);
    for (int n = 0; n < NODES; ++n)
      with_free_[NODE_GPUS][n / 64] |= std::uint64_t{1} << (n % 64);
    for (int p = 0; p < 2; ++p)
      for (int first = 0; first < PODS[p].nodes; first += PODS[p].nodes_per_leaf) {
        leaf_first_.push_back(PODS[p].first_node + first);
        leaf_end_.push_back(PODS[p].first_node + std::min(first + PODS[p].nodes_per_leaf, PODS[p].nodes));
        leaf_pod_.push_back(p);
        leaf_whole_.push_back(leaf_end_.back() - leaf_first_.back());
      }
    for (int leaf = 0; leaf < static_cast<int>(leaf_first_.size()); ++leaf)
      for (int n = leaf_first_[leaf]; n < leaf_end_[leaf]; ++n)
        leaf_of_.push_back(leaf);
  }

  // Places and takes `job`'s GPUs, appending its nodes to `parts`; false if it does not fit now.
  bool place(Job& job, std::vector<int>& parts)
  {
    if (job.gpus <= NODE_GPUS)
      return place_in_node(job, parts);
    const int count = (job.gpus + NODE_GPUS - 1) / NODE_GPUS;
    int best_pod = -1;
    int best_leaves = 0;
    for (int p = 0; p < 2; ++p) {
      const int leaves = leaves_needed(p, count);
      if (leaves > 0 && (best_pod < 0 || leaves < best_leaves)) {
        best_pod = p;
        best_leaves = leaves;
      }
    }
    if (best_pod < 0)
      return false;
    job.pod = best_pod;
    job.first_part = static_cast<int>(parts.size());
    job.node_count = count;
    for (int leaf : chosen_leaves_[best_pod])
      for (int n = leaf_first_[leaf]; n < leaf_end_[leaf] && static_cast<int>(parts.size()) - job.first_part < count;
           ++n)
        if (free_[n] == NODE_GPUS)
          parts.push_back(n);
    std::sort(parts.begin() + job.first_part, parts.end());
    for (int i = job.first_part; i < static_cast<int>(parts.size()); ++i)
      take(parts[i], NODE_GPUS);
    return true;
  }

  void release(const Job& job, const std::vector<int>& parts)
  {
    const int each = job.gpus <= NODE_GPUS ? job.gpus : NODE_GPUS;
    for (int i = job.first_part; i < job.first_part + job.node_count; ++i) {
      const int n = parts[i];
      set_free(n, free_[n] + each);
      if (free_[n] == NODE_GPUS)
        ++leaf_whole_[leaf_of_[n]];
    }
  }

private:
  bool place_in_node(Job& job, std::vector<int>& parts)
  {
    int best = -1;
    for (int f = job.gpus; f <= NODE_GPUS && best < 0; ++f)
      best = lowest_with_free(f);
    if (best < 0)
      return false;
    job.pod = best < PODS[1].first_node ? 0 : 1;
    job.first_part = static_cast<int>(parts.size());
    job.node_count = 1;
    parts.push_back(best);
    take(best, job.gpus);
    return true;
  }

  // How many leaves of pod `p` the job's `count` whole nodes take (0: not enough), remembering them.
  int leaves_needed(int p, int count)
  {
    std::vector<int>& chosen = chosen_leaves_[p];
    chosen.clear();
    int best_single = -1;
    int total = 0;
    for (int leaf = 0; leaf < static_cast<int>(leaf_first_.size()); ++leaf) {
      if (leaf_pod_[leaf] != p || leaf_whole_[leaf] == 0)
        continue;
      total += leaf_whole_[leaf];
      chosen.push_back(leaf);
      if (leaf_whole_[leaf] >= count && (best_single < 0 || leaf_whole_[leaf] < leaf_whole_[best_single]))
        best_single = leaf;
    }
    if (total < count)
      return 0;
    if (best_single >= 0) {
      chosen = {best_single};
      return 1;
    }
    std::stable_sort(chosen.begin(), chosen.end(), [&](int a, int b) { return leaf_whole_[a] > leaf_whole_[b]; });
    int leaves = 0;
    for (int taken = 0; taken < count; taken += leaf_whole_[chosen[leaves++]]) {
    }
    chosen.resize(static_cast<std::size_t>(leaves));
    return leaves;
  }

  int lowest_with_free(int f) const
  {
    for (int w = 0; w < WORDS; ++w)
      if (with_free_[f][w] != 0)
        return w * 64 + std::countr_zero(with_free_[f][w]);
    return -1;
  }

  void set_free(int node, int gpus)
  {
    with_free_[free_[node]][node / 64] &= ~(std::uint64_t{1} << (node % 64));
    free_[node] = gpus;
    with_free_[gpus][node / 64] |= std::uint64_t{1} << (node % 64);
  }

  void take(int node, int gpus)
  {
    if (free_[node] == NODE_GPUS)
      --leaf_whole_[leaf_of_[node]];
    set_free(node, free_[node] - gpus);
  }

  static constexpr int WORDS = (NODES + 63) / 64;
  std::vector<int> free_;                      // by node
  std::uint64_t with_free_[NODE_GPUS + 1][WORDS] = {}; // by free GPUs: a bit per node
  std::vector<int> leaf_of_;    // by node
  std::vector<int> leaf_first_; // by leaf: first node, end node, pod, wholly free nodes
  std::vector<int> leaf_end_;
  std::vector<int> leaf_pod_;
  std::vector<int> leaf_whole_;
  std::vector<int> chosen_leaves_[2];
};

void replay(std::vector<Job>& jobs, std::vector<int>& parts)
{
  Cluster cluster;
  using End = std::pair<double, std::size_t>;
  std::priority_queue<End, std::vector<End>, std::greater<>> ends;
  std::vector<std::size_t> queue; // FIFO by job index; `head` is its front
  std::size_t head = 0;
  std::size_t next = 0;
  constexpr int LARGEST = 2416; // Kalos: 302 nodes x 8 GPUs
  while (next < jobs.size() || !ends.empty()) {
    double now = next < jobs.size() ? jobs[next].submit : ends.top().first;
    if (!ends.empty())
      now = std::min(now, ends.top().first);
    for (; !ends.empty() && ends.top().first <= now; ends.pop())
      cluster.release(jobs[ends.top().second], parts);
    for (; next < jobs.size() && jobs[next].submit <= now; ++next) {
      Job& job = jobs[next];
      if (job.gpus == 0) {
        job.start = job.submit;
        job.end = job.submit + job.duration;
      } else if (job.gpus <= LARGEST) {
        queue.push_back(next);
      }
    }
    for (; head < queue.size(); ++head) {
      Job& job = jobs[queue[head]];
      if (!cluster.place(job, parts))
        break;
      job.start = now;
      job.end = now + job.duration;
      ends.emplace(job.end, queue[head]);
    }
  }
}

void append_fixed(std::string& out, double value, int decimals)
{
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  out.append(buffer, result.ptr);
}

void append_seconds(std::string& out, double value) { append_fixed(out, value, 3); }

const Pod& pod_of(int node) { return PODS[node < PODS[1].first_node ? 0 : 1]; }

// The job's nodes, space-separated, by name.
void append_nodes(std::string& out, const Job& job, const std::vector<int>& parts)
{
  for (int i = job.first_part; i < job.first_part + job.node_count; ++i) {
    if (i > job.first_part)
      out += ' ';
    const Pod& pod = pod_of(parts[i]);
    out += pod.name;
    out += "-n";
    out += std::to_string(parts[i] - pod.first_node);
  }
}

// The reference's own row: job_id,gpus,submit_s,start_s,end_s,pod,node_list.
void append_short_row(std::string& out, const Job& job, const std::string& names, const std::vector<int>& parts)
{
  append(out, names, job.name);
  out += ',';
  out += std::to_string(job.gpus);
  out += ',';
  append_seconds(out, job.submit);
  out += ',';
  if (job.start >= 0) {
    append_seconds(out, job.start);
    out += ',';
    append_seconds(out, job.end);
  } else {
    out += ',';
  }
  out += ',';
  if (job.pod >= 0)
    out += PODS[job.pod].name;
  out += ',';
  append_nodes(out, job, parts);
  out += '\n';
}

// acmesim's jobs.csv row of a run without failures (docs/outputs.md): the fault columns hold
// zeros, a job's useful time is its duration, and its ETTR that over its wall time.
void append_whole_row(std::string& out, const Job& job, const std::string& names, const WholeRows& whole,
                      const std::vector<int>& parts)
{
  const RowDetails& details = whole.rows[job.row];
  const bool ran = job.start >= 0;
  const bool gpu_job_ran = ran && job.gpus > 0;
  append(out, names, job.name);
  out += ',';
  out += whole.labels[details.type];
  out += ',';
  append(out, names, details.user);
  out += ',';
  out += std::to_string(job.gpus);
  out += ',';
  out += std::to_string(job.node_count);
  out += ',';
  out += std::to_string(details.cpus);
  out += ',';
  append_seconds(out, job.submit);
  out += ',';
  if (ran) {
    for (const double seconds : {job.start, job.end, job.start - job.submit, job.end - job.submit}) {
      append_seconds(out, seconds);
      out += ',';
    }
  } else {
    out += ",,,,";
  }
  out += ran ? std::string_view(whole.labels[details.state]) : std::string_view("REJECTED");
  out += ',';
  if (job.pod >= 0)
    out += PODS[job.pod].name;
  out += ',';
  int leaves = 0; // distinct leaves of the job's nodes, which are sorted and in one pod
  int last_leaf = -1;
  for (int i = job.first_part; i < job.first_part + job.node_count; ++i) {
    const Pod& pod = pod_of(parts[i]);
    const int leaf = (parts[i] - pod.first_node) / pod.nodes_per_leaf;
    leaves += leaf != last_leaf ? 1 : 0;
    last_leaf = leaf;
  }
  out += std::to_string(leaves);
  out += ',';
  append_nodes(out, job, parts);
  out += ",0,0,0,";
  if (gpu_job_ran)
    append_seconds(out, job.duration);
  out += ",0.000,0.000,0.000,0.000,0.000,0.000,";
  if (gpu_job_ran) {
    const double wall = job.end - job.start;
    append_fixed(out, wall > 0 ? job.duration / wall : 1.0, 6);
  }
  if (whole.recorded_waits) {
    out += ',';
    if (details.recorded_wait >= 0)
      append_seconds(out, details.recorded_wait);
  }
  out += '\n';
}

constexpr const char* SHORT_HEADER = "job_id,gpus,submit_s,start_s,end_s,pod,node_list\n";
constexpr const char* WHOLE_HEADER =
    "job_id,type,user,gpus,nodes,cpus,submit_s,start_s,end_s,wait_s,jct_s,state,pod,leaves,node_list,"
    "interruptions,preemptions,checkpoints,useful_s,lost_s,preempted_s,checkpoint_s,detection_s,"
    "waiting_for_person_s,restart_s,ettr";

// One row per job, in submission order; whole rows with `whole`.
void write_jobs(const char* path, const std::vector<Job>& jobs, const std::string& names, const WholeRows* whole,
                const std::vector<int>& parts)
{
  std::FILE* f = std::fopen(path, "wb");
  if (f == nullptr)
    die(std::string("cannot write ") + path);
  std::string out = whole != nullptr ? WHOLE_HEADER : SHORT_HEADER;
  if (whole != nullptr) // acmesim writes the recorded wait's column when some job has one
    out += whole->recorded_waits ? ",recorded_wait_s\n" : "\n";
  const auto flush = [&] {
    if (std::fwrite(out.data(), 1, out.size(), f) != out.size())
      die(std::string("cannot write ") + path);
    out.clear();
  };
  for (const Job& job : jobs) {
    if (whole != nullptr)
      append_whole_row(out, job, names, *whole, parts);
    else
      append_short_row(out, job, names, parts);
    if (out.size() > (1 << 20))
      flush();
  }
  flush();
  if (std::fclose(f) != 0)
    die(std::string("cannot write ") + path);
}

} // namespace

int main(int argc, char** argv)
{
  const bool whole_rows = argc == 4 && std::string_view(argv[3]) == "--whole-rows";
  if (argc != 3 && !whole_rows)
    die("usage: fifo_replay TRACE.csv OUT.csv [--whole-rows]");
  std::string names;
  WholeRows extra;
  WholeRows* const wanted = whole_rows ? &extra : nullptr;
  std::vector<Job> jobs = read_jobs(argv[1], names, wanted);
  std::vector<int> parts;
  parts.reserve(jobs.size());
  replay(jobs, parts);
  write_jobs(argv[2], jobs, names, wanted, parts);
  return 0;
}
