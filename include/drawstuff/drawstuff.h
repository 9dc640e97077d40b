#ifndef __DRAWSTUFF_H__
#define __DRAWSTUFF_H__

/*
 * drawstuff: the small viewer ODE's sample programs draw with, as an API
 * compatible library (libdrawstuff). z points up and the ground is z = 0.
 *
 * Mouse (window mode): left drag turns the camera (heading, pitch), right
 * drag moves it forward/back and sideways, middle (or left + right) drag
 * moves it sideways and up.
 *
 * Headless mode (no display, DS_HEADLESS=1, DS_FRAMES=N or -headless) runs
 * the same loop without a window and can write PNG frames and an animated
 * GIF (DS_OUTPUT=DIR). See the README section "Viewer (drawstuff)".
 */

#if !defined(DS_API)
#define DS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#include <drawstuff/version.h>

/* Texture numbers for dsSetTexture. */
enum DS_TEXTURE_NUMBER {
  DS_NONE = 0, /* plain colour */
  DS_WOOD,
  DS_CHECKERED,
  DS_GROUND,
  DS_SKY
};

/* Draw modes for dsSetDrawMode. */
#define DS_POLYFILL 0
#define DS_WIREFRAME 1

/* Callbacks of the simulation loop. */
typedef struct dsFunctions {
  int version;                  /* DS_VERSION */
  void (*start)();              /* once, before the first frame */
  void (*step)(int pause);      /* every frame; pause != 0 while paused */
  void (*command)(int cmd);     /* a key without Ctrl was pressed */
  void (*stop)();               /* once, after the loop ends */
  const char *path_to_textures; /* version 2: directory of the .ppm textures, or 0 */
} dsFunctions;

/* Runs the loop until dsStop, Ctrl-X, the window closing or the headless frame count. */
DS_API void dsSimulationLoop(int argc, char **argv, int window_width, int window_height,
                             struct dsFunctions *fn);

/* Messages: dsError prints and exits, dsDebug prints and aborts, dsPrint prints. */
DS_API void dsError(const char *msg, ...);
DS_API void dsDebug(const char *msg, ...);
DS_API void dsPrint(const char *msg, ...);

/* Camera: position and heading/pitch/roll in degrees (either pointer may be 0). */
DS_API void dsSetViewpoint(float xyz[3], float hpr[3]);
DS_API void dsGetViewpoint(float xyz[3], float hpr[3]);

/* Ends the loop after the current frame. */
DS_API void dsStop();

/* Seconds since the previous call (clamped to (0, 1]). */
DS_API double dsElapsedTime();

/* Drawing state for the dsDraw* calls that follow. */
DS_API void dsSetTexture(int texture_number);
DS_API void dsSetColor(float red, float green, float blue);
DS_API void dsSetColorAlpha(float red, float green, float blue, float alpha);

/* Shapes. pos: centre; R: 3x4 row-major rotation as in ODE (dMatrix3).
   Cylinders and capsules lie along their local z axis; length excludes the caps. */
DS_API void dsDrawBox(const float pos[3], const float R[12], const float sides[3]);
DS_API void dsDrawSphere(const float pos[3], const float R[12], float radius);
DS_API void dsDrawTriangle(const float pos[3], const float R[12], const float *v0, const float *v1,
                           const float *v2, int solid);
DS_API void dsDrawTriangles(const float pos[3], const float R[12], const float *v, const int n,
                            int solid);
DS_API void dsDrawCylinder(const float pos[3], const float R[12], float length, float radius);
DS_API void dsDrawCapsule(const float pos[3], const float R[12], float length, float radius);
DS_API void dsDrawLine(const float pos1[3], const float pos2[3]);
/* planes: planecount * (a,b,c,d); points: pointcount * (x,y,z); polygons: for each
   plane, its vertex count followed by that many point indices. */
DS_API void dsDrawConvex(const float pos[3], const float R[12], const float *_planes,
                         unsigned int _planecount, const float *_points, unsigned int _pointcount,
                         const unsigned int *_polygons);

/* The same in double precision (sizes stay float where ODE's are float). */
DS_API void dsDrawBoxD(const double pos[3], const double R[12], const double sides[3]);
DS_API void dsDrawSphereD(const double pos[3], const double R[12], const float radius);
DS_API void dsDrawTriangleD(const double pos[3], const double R[12], const double *v0,
                            const double *v1, const double *v2, int solid);
DS_API void dsDrawTrianglesD(const double pos[3], const double R[12], const double *v, const int n,
                             int solid);
DS_API void dsDrawCylinderD(const double pos[3], const double R[12], float length, float radius);
DS_API void dsDrawCapsuleD(const double pos[3], const double R[12], float length, float radius);
DS_API void dsDrawLineD(const double pos1[3], const double pos2[3]);
DS_API void dsDrawConvexD(const double pos[3], const double R[12], const double *_planes,
                          unsigned int _planecount, const double *_points, unsigned int _pointcount,
                          const unsigned int *_polygons);

/* Tessellation: sphere subdivision level (default 1), capsule quality (default 3). */
DS_API void dsSetSphereQuality(int n);
DS_API void dsSetCapsuleQuality(int n);

/* DS_POLYFILL or DS_WIREFRAME. */
DS_API void dsSetDrawMode(int mode);

/* Older names. */
#define dsDrawCappedCylinder dsDrawCapsule
#define dsDrawCappedCylinderD dsDrawCapsuleD
#define dsSetCappedCylinderQuality dsSetCapsuleQuality

#ifdef __cplusplus
}
#endif

#endif
