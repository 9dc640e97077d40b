#ifndef _DRAWSTUFF_VERSION_H_
#define _DRAWSTUFF_VERSION_H_

/* Version of the dsFunctions structure: 0x0002 adds path_to_textures. */
#define DS_VERSION 0x0002

#endif
