// The oEmbed document of each embeddable figure (https://oembed.com, type "rich"), advertised by
// the embed page's <link rel="alternate" type="application/json+oembed">. Static: one per figure.
import type { APIRoute, GetStaticPaths } from 'astro';
import { EMBED_FIGURES, embedSnippet, type EmbedFigure } from '../../../components/embeds';

export const getStaticPaths = (() =>
  EMBED_FIGURES.map((figure) => ({ params: { figure: figure.id }, props: { figure } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props, site }) => {
  const figure = (props as { figure: EmbedFigure }).figure;
  const base = import.meta.env.BASE_URL.replace(/\/$/, '');
  // Without SITE_URL the build knows no address: the iframe's src is then site-absolute.
  const origin = site ? site.origin : '';
  const doc = {
    version: '1.0',
    type: 'rich',
    title: figure.title,
    provider_name: 'Desired State',
    provider_url: `${origin}${base}/`,
    width: figure.width,
    height: figure.height,
    html: embedSnippet(figure, origin, base),
  };
  return new Response(JSON.stringify(doc, null, 2) + '\n', { headers: { 'Content-Type': 'application/json+oembed' } });
};
