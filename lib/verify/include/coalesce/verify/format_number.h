// The one way the verifier writes a number into its reports, notes and messages, so
// the same figure reads the same everywhere (the recorded comparisons under
// test/verify/data/ are compared byte for byte).
#pragma once

#include <string>

namespace coalesce::verify {

enum class NumberStyle {
  Figure,    // sectors, wavefronts, lanes, shares: a whole number bare, else three decimals (4, 2.500)
  Shortest,  // settings the user gave (seconds, percentages): up to six significant digits (120, 0.5)
};

std::string formatNumber(double value, NumberStyle style = NumberStyle::Figure);

}  // namespace coalesce::verify
