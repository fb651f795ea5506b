/* Links against an installed hetscal and prints its version. */
#include <hetscal/hetscal.h>
#include <stdio.h>

int main(void) {
  printf("hetscal %s\n", hetscal_version());
  return 0;
}
