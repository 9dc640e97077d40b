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

static void stop(void) { printf("frames=%d\n", frames); }

int main(int argc, char **argv) {
  dsFunctions fn = {DS_VERSION, start, step, 0, stop, 0};
  dsSimulationLoop(argc, argv, 320, 240, &fn);
  return 0;
}
