import { defineCollection } from 'astro:content';
import { glob, file } from 'astro/loaders';
import { z } from 'astro/zod';
import { compileFigure, loadAllFigures } from './sim/index.ts';

/** One chapter (or the troubleshooting page): MDX in the top-level content/ folder. */
const articles = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(20).max(200),
    order: z.number().int().min(1),
    summary: z.string().min(40),
    kubernetesVersion: z.string().regex(/^1\.\d+$/),
    sources: z.array(z.object({ title: z.string().min(1), url: z.string().url() })).min(1),
  }),
});

/** The glossary: one entry per term, with where the site explains it. */
const glossary = defineCollection({
  loader: file('./content/glossary.yaml'),
  schema: z.object({
    term: z.string().min(1),
    definition: z.string().min(20),
    explainedAt: z.string().regex(/^\/[a-z-]+\/(#[a-z0-9-]+)?$/),
  }),
});

/**
 * The figures, compiled at build time: each one's default story run once in Node into its recorded
 * inputs, the frame and world hash at each beat, and the first view (what the page shows before and
 * without JavaScript). A figure's .astro wrapper reads its entry.
 */
const figures = defineCollection({
  loader: async () => (await loadAllFigures()).map((def) => ({ ...compileFigure(def), id: def.id })),
});

export const collections = { articles, glossary, figures };
