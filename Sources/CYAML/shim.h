// The one YAML parser of TypedEvents: Debian's libyaml (`libyaml-dev`) or Homebrew's `libyaml`.
#include <yaml.h>
