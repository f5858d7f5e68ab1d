#include "sim/experiment/SlurmBackend.hpp"

#include "models/common/Interrupts.hpp"
#include "models/common/TextFile.hpp"
#include "sim/report/AtomicFile.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <thread>

namespace acmesim {

namespace fs = std::filesystem;

namespace {

// A word for /bin/sh: single-quoted, with embedded single quotes closed and reopened.
std::string shell_quote(const std::string& s)
{
  std::string out = "'";
  for (const char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A client's output file without its trailing line end.
std::string output_of(const std::string& path)
{
  std::string s = read_text_file(path).value_or("");
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.pop_back();
  return s;
}

// Runs a Slurm client command, its output captured in `dir`; nullopt-like failure is reported
// through the returned exit, with stdout and stderr texts.
struct ClientResult {
  ChildExit exit;
  std::string out;
  std::string err;
};

ClientResult run_client(const std::vector<std::string>& argv, const fs::path& dir, const std::string& tag)
{
  ChildCommand c{argv, (dir / (tag + ".out")).string(), (dir / (tag + ".err")).string()};
  ClientResult r;
  try {
    r.exit = run_child(c);
  } catch (const SpawnError& e) {
    throw SlurmError(fmt::format("{} (is Slurm's client installed and on PATH?)", e.what()));
  }
  r.out = output_of(c.stdout_path);
  r.err = output_of(c.stderr_path);
  return r;
}

// The array script. Its options go to sbatch as arguments (see sbatch_command), not as #SBATCH
// lines, which sbatch splits at spaces: paths and names stay exactly as given.
fs::path write_batch_script(const fs::path& dir, const fs::path& tasks, const std::string& acmesim)
{
  const fs::path script = dir / "sweep.sbatch";
  AtomicFile file(script);
  file.stream() << "#!/bin/sh\n"
                << "# One array task per sweep point (acmesim sweep --backend slurm; sbatch.args has the options).\n"
                << "exec " << shell_quote(acmesim) << " sweep-task " << shell_quote(tasks.string())
                << " \"$SLURM_ARRAY_TASK_ID\"\n";
  file.commit();
  return script;
}

std::vector<std::string> sbatch_command(const fs::path& dir, const fs::path& script, std::size_t count,
                                        const SlurmRun& run)
{
  std::string array = fmt::format("--array=0-{}", count - 1);
  if (run.options.throttle > 0)
    array += fmt::format("%{}", run.options.throttle);
  // Slurm expands %A and %a in the output path, and would expand any other '%' too.
  if (dir.string().find('%') != std::string::npos)
    throw SlurmError(fmt::format("the results directory {} has a '%' in its path, which Slurm would expand in "
                                 "the tasks' output file names; choose another --out",
                                 dir.parent_path().parent_path().string()));
  const std::string output = (dir / "task-%A_%a.out").string();
  std::vector<std::string> argv{"sbatch",        "--parsable",         "--job-name=" + run.job_name,
                                array,           "--ntasks=1",         "--cpus-per-task=1",
                                "--output=" + output};
  if (!run.options.partition.empty())
    argv.push_back("--partition=" + run.options.partition);
  if (!run.options.time_limit.empty())
    argv.push_back("--time=" + run.options.time_limit);
  argv.insert(argv.end(), run.options.extra_args.begin(), run.options.extra_args.end());
  argv.push_back(script.string());
  return argv;
}

// Each submission gets its own directory, so that the tasks of an earlier array still queued
// (after an interrupted sweep) keep reading their own list of points.
fs::path new_submission_dir(const fs::path& out)
{
  for (int n = 1;; ++n) {
    const fs::path dir = out / "slurm" / fmt::format("submission-{}", n);
    if (fs::create_directories(dir))
      return dir;
  }
}

// Points whose status file has appeared, for the progress line. A point is looked at until its
// status shows up, then never again: each poll stats only the points still running.
class StatusTally {
public:
  explicit StatusTally(const std::vector<fs::path>& dirs) : dirs_(dirs), ended_(dirs.size(), false) {}

  void update()
  {
    for (std::size_t i = 0; i < dirs_.size(); ++i) {
      std::error_code ec;
      if (ended_[i] || !fs::exists(dirs_[i] / "status.json", ec))
        continue;
      ended_[i] = true;
      ++done_;
      failed_ += run_error(dirs_[i]).empty() ? 0 : 1;
    }
  }
  std::size_t done() const { return done_; }
  std::size_t failed() const { return failed_; }
  bool all_done() const { return done_ == dirs_.size(); }

private:
  const std::vector<fs::path>& dirs_;
  std::vector<bool> ended_;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
};

// Polls squeue until Slurm lists no task of the array. Slurm forgets a finished job after
// MinJobAge, and squeue then answers "Invalid job id": done as well. A controller that does not
// answer for a while (a restart) is waited for; one that stays silent ends the wait.
void wait_for_array(const fs::path& dir, const std::string& job_id, const std::string& cluster, StatusTally& tally,
                    const SlurmRun& run, const SweepProgress& progress)
{
  std::vector<std::string> squeue{"squeue", "-h", "-j", job_id, "-o", "%i"};
  if (!cluster.empty())
    squeue.insert(squeue.begin() + 1, {"-M", cluster});
  const int patience = std::max(1, static_cast<int>(300 / std::max(run.poll_s, 0.01))); // about 5 minutes
  int silent_polls = 0;
  std::size_t reported = 0;
  while (true) {
    const ClientResult q = run_client(squeue, dir, "squeue");
    if (q.exit.ok() && q.out.find_first_not_of(" \n") == std::string::npos)
      break;
    if (!q.exit.ok() && q.err.find("Invalid job id") != std::string::npos)
      break;
    if (!q.exit.ok() && ++silent_polls >= patience)
      throw std::runtime_error(fmt::format("squeue has failed for 5 minutes ({}): {}; the array may still run: "
                                           "scancel {} stops it, and sweep --resume gathers what finished",
                                           q.exit.describe(), q.err, job_id));
    if (q.exit.ok())
      silent_polls = 0;
    tally.update();
    if (progress && tally.done() != reported) {
      progress(tally.done(), tally.failed());
      reported = tally.done();
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(run.poll_s));
    stop_if_interrupted(fmt::format("while Slurm array {} ran: it goes on (scancel {} stops it); the same command "
                                    "with --resume gathers what it finished",
                                    job_id, job_id));
  }
}

} // namespace

void run_points_on_slurm(const std::vector<fs::path>& dirs, const fs::path& out, const SlurmRun& run,
                         const std::string& acmesim, const SweepProgress& progress)
{
  if (dirs.empty())
    return;
  const fs::path dir = new_submission_dir(out);
  const fs::path tasks = dir / "tasks.txt";
  {
    AtomicFile file(tasks);
    for (const auto& d : dirs)
      file.stream() << d.string() << '\n';
    file.commit();
  }
  const fs::path script = write_batch_script(dir, tasks, acmesim);
  const std::vector<std::string> sbatch = sbatch_command(dir, script, dirs.size(), run);
  {
    AtomicFile args(dir / "sbatch.args");
    for (const auto& a : sbatch)
      args.stream() << a << '\n';
    args.commit();
  }
  const ClientResult submitted = run_client(sbatch, dir, "sbatch");
  if (!submitted.exit.ok())
    throw SlurmError(fmt::format("sbatch refused the array ({}): {}", submitted.exit.describe(), submitted.err));
  // --parsable prints "id" or, on a federation, "id;cluster".
  const auto semicolon = submitted.out.find(';');
  const std::string job_id = submitted.out.substr(0, semicolon);
  const std::string cluster = semicolon == std::string::npos ? "" : submitted.out.substr(semicolon + 1);
  std::fprintf(stderr, "sweep: submitted Slurm array job %s with %zu tasks (scancel %s stops it)\n", job_id.c_str(),
               dirs.size(), job_id.c_str());
  StatusTally tally(dirs);
  wait_for_array(dir, job_id, cluster, tally, run, progress);

  // On a network file system a task's last status file may show up here a little after Slurm
  // has forgotten the task: give missing ones a grace period before reporting them.
  tally.update();
  for (int waited = 0; !tally.all_done() && waited < 30; ++waited) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    tally.update();
  }
  if (progress)
    progress(tally.done(), tally.failed());
}

int run_sweep_task(const fs::path& tasks_file, std::size_t index, const std::string& acmesim)
{
  std::ifstream in(tasks_file);
  if (!in)
    throw std::runtime_error("cannot read " + tasks_file.string());
  std::string line;
  for (std::size_t i = 0; i <= index; ++i)
    if (!std::getline(in, line))
      throw std::runtime_error(fmt::format("{} has no task {}", tasks_file.string(), index));
  const fs::path dir = line;
  ChildExit exit;
  try {
    exit = run_child(point_command(dir, acmesim));
  } catch (const SpawnError& e) {
    exit.code = 127;
    exit.spawn_error = e.what();
  }
  write_run_status(dir, exit);
  return exit.code;
}

} // namespace acmesim
