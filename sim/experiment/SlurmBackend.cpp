#include "sim/experiment/SlurmBackend.hpp"

#include "sim/report/AtomicFile.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <sstream>
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

std::string slurp(const fs::path& path)
{
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trimmed(std::string s)
{
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
  r.out = trimmed(slurp(c.stdout_path));
  r.err = trimmed(slurp(c.stderr_path));
  return r;
}

fs::path write_batch_script(const fs::path& slurm_dir, const fs::path& tasks, std::size_t count, const SlurmRun& run,
                            const std::string& acmesim)
{
  const fs::path script = slurm_dir / "sweep.sbatch";
  AtomicFile file(script);
  auto& s = file.stream();
  s << "#!/bin/sh\n"
    << "# One array task per sweep point; written by acmesim sweep --backend slurm.\n"
    << "#SBATCH --job-name=" << run.job_name << '\n'
    << "#SBATCH --array=0-" << count - 1;
  if (run.options.throttle > 0)
    s << '%' << run.options.throttle;
  s << '\n' << "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
    << "#SBATCH --output=" << (slurm_dir / "task-%A_%a.out").string() << '\n';
  if (!run.options.partition.empty())
    s << "#SBATCH --partition=" << run.options.partition << '\n';
  if (!run.options.time_limit.empty())
    s << "#SBATCH --time=" << run.options.time_limit << '\n';
  s << "exec " << shell_quote(acmesim) << " sweep-task " << shell_quote(tasks.string())
    << " \"$SLURM_ARRAY_TASK_ID\"\n";
  file.commit();
  return script;
}

std::size_t count_statuses(const std::vector<fs::path>& dirs, std::size_t& failed)
{
  std::size_t done = 0;
  failed = 0;
  for (const auto& d : dirs) {
    std::error_code ec;
    if (!fs::exists(d / "status.json", ec))
      continue;
    ++done;
    failed += run_error(d).empty() ? 0 : 1;
  }
  return done;
}

} // namespace

void run_points_on_slurm(const std::vector<fs::path>& dirs, const fs::path& out, const SlurmRun& run,
                         const std::string& acmesim, const SweepProgress& progress)
{
  if (dirs.empty())
    return;
  const fs::path slurm_dir = out / "slurm";
  fs::create_directories(slurm_dir);
  const fs::path tasks = slurm_dir / "tasks.txt";
  {
    AtomicFile file(tasks);
    for (const auto& d : dirs)
      file.stream() << d.string() << '\n';
    file.commit();
  }
  const fs::path script = write_batch_script(slurm_dir, tasks, dirs.size(), run, acmesim);
  std::vector<std::string> sbatch{"sbatch", "--parsable"};
  sbatch.insert(sbatch.end(), run.options.extra_args.begin(), run.options.extra_args.end());
  sbatch.push_back(script.string());
  const ClientResult submitted = run_client(sbatch, slurm_dir, "sbatch");
  if (!submitted.exit.ok())
    throw SlurmError(fmt::format("sbatch refused the array ({}): {}", submitted.exit.describe(), submitted.err));
  const std::string job_id = submitted.out.substr(0, submitted.out.find(';')); // "id" or "id;cluster"
  std::fprintf(stderr, "sweep: submitted Slurm array job %s with %zu tasks (scancel %s stops it)\n", job_id.c_str(),
               dirs.size(), job_id.c_str());

  // Slurm forgets finished jobs after MinJobAge, then squeue answers "Invalid job id": also done.
  int client_failures = 0;
  std::size_t reported = 0;
  while (true) {
    const ClientResult q = run_client({"squeue", "-h", "-j", job_id, "-o", "%i"}, slurm_dir, "squeue");
    if (q.exit.ok() && q.out.empty())
      break;
    if (!q.exit.ok()) {
      if (q.err.find("Invalid job id") != std::string::npos)
        break;
      if (++client_failures >= 10)
        throw SlurmError(fmt::format("squeue keeps failing ({}): {}", q.exit.describe(), q.err));
    } else {
      client_failures = 0;
    }
    std::size_t failed = 0;
    const std::size_t done = count_statuses(dirs, failed);
    if (progress && done != reported) {
      progress(done, failed);
      reported = done;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(run.poll_s));
  }
  std::size_t failed = 0;
  const std::size_t done = count_statuses(dirs, failed);
  if (progress && done != reported)
    progress(done, failed);
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
