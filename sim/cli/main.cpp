#include "sim/cli/Commands.hpp"

int main(int argc, char** argv)
{
  return acmesim::run_cli(argc, argv);
}
