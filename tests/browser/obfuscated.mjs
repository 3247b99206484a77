// A small obfuscated release-build trace and its R8 mapping, for the mapping tests.
import { writeTrace } from './support.mjs';

// An obfuscated app: `a.b` is com.example.Spieler (three methods named `a`, told apart
// by their parameters), `a.c` com.example.Track; the framework keeps its names.
export const OBFUSCATED = writeTrace({
  threads: [[1, 'main'], [2, 'worker']],
  methods: [
    [0x10, 'android.os.Looper', 'loop', '()V', 'Looper.java'],
    [0x20, 'a.b', 'a', '(La/c;)V', 'SourceFile'],
    [0x30, 'a.b', 'a', '(I)V', 'SourceFile'],
    [0x40, 'a.c', 'a', '()Ljava/lang/String;', 'SourceFile'],
    [0x50, 'a.b', 'b', '(J)V', 'SourceFile'],
  ],
  records: [
    [1, 0x10, 0, 0], [1, 0x20, 0, 100], [1, 0x40, 0, 200], [1, 0x40, 1, 5200], [1, 0x20, 1, 9000],
    [1, 0x30, 0, 9100], [1, 0x30, 1, 12000], [1, 0x50, 0, 12100], [1, 0x50, 1, 13000], [1, 0x10, 1, 20000],
    [2, 0x30, 0, 300], [2, 0x30, 1, 8000],
  ],
});

export const MAPPING = `# compiler: R8
# compiler_version: 8.5.35
com.example.Spieler -> a.b:
# {"id":"sourceFile","fileName":"Spieler.kt"}
    1:4:void spiele(com.example.Track):20:23 -> a
    5:5:void com.example.Log.debug(java.lang.String):12:12 -> a
    5:5:void spiele(com.example.Track):31 -> a
    1:2:void spiele(int):40:41 -> a
    1:1:void suche(long):50:50 -> b
    1:1:void springe(long):60:60 -> b
com.example.Track -> a.c:
    1:1:java.lang.String titel():5:5 -> a
com.example.Unused -> a.d:
    void unused() -> a
`;

