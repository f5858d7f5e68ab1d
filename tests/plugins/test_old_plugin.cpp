// A plugin built against another version of the scheduler interface: acmesim must refuse it
// before reading anything else from it.
#include "sim/scheduler/SchedulerPlugin.hpp"

extern "C" __attribute__((visibility("default"))) int acmesim_scheduler_api_version()
{
  return ACMESIM_SCHEDULER_API_VERSION + 1;
}

extern "C" __attribute__((visibility("default"))) const acmesim::SchedulerPlugin* acmesim_scheduler_plugin()
{
  return nullptr;
}
