import { Result } from 'antd';

/**
 * antd's "not found" picture as decoration only: Result status="404" draws it with an SVG title in English ("No
 * Found"), which screen readers announce as an image in every language. The heading beside it says it all.
 */
export function NotFoundImage() {
  return (
    <span className="campus-result-image" aria-hidden="true">
      <Result.PRESENTED_IMAGE_404 />
    </span>
  );
}
