/* A known scene for the headless render tests: a 0.5 m red box centred
 * 1 m above the ground, seen from 3 m along +x at the box's height,
 * looking back along -x (heading 180). */
#include <drawstuff/drawstuff.h>
#include <stdio.h>

static int frames;

static void start(void) {
  float xyz[3] = {3.0f, 0.0f, 1.0f}, hpr[3] = {180.0f, 0.0f, 0.0f};
  dsSetViewpoint(xyz, hpr);
}

static void step(int pause) {
  const double pos[3] = {0, 0, 1}, R[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, sides[3] = {0.5, 0.5, 0.5};
  (void)pause;
  frames++;
  dsSetColor(1, 0, 0);
  dsDrawBoxD(pos, R, sides);
}

static void command(int cmd) {
  printf("key=%c\n", cmd);
  fflush(stdout);
}

static void stop(void) {
  float xyz[3], hpr[3];
  dsGetViewpoint(xyz, hpr);
  printf("frames=%d\nview=%.2f %.2f %.2f %.1f %.1f %.1f\n", frames, xyz[0], xyz[1], xyz[2], hpr[0], hpr[1], hpr[2]);
}

int main(int argc, char **argv) {
  dsFunctions fn = {DS_VERSION, start, step, command, stop, 0};
  dsSimulationLoop(argc, argv, 320, 240, &fn);
  return 0;
}
