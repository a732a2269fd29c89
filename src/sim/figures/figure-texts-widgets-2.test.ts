// The figure-texts property (testing/figure-texts.ts) for every other inline widget, from the
// second: figure-texts.test.ts has the chapters' figures; three files let CI's two workers share it.
import { textsAgreeWithFrames } from '../testing/figure-texts.ts';
import { WIDGET_FIGURES } from '../testing/figures.ts';

textsAgreeWithFrames(WIDGET_FIGURES.filter((_, i) => i % 2 === 1));
